// A vault error whose cause is a hostbook command (hostbook's keyring stopped by `vault
// lock`) reads as it always has: the vault's text, the cause and the remedy worded by the
// executable (VaultError+Presentation). HeadlessKeyringTests see the same lines from the binary.
@testable import hostbook
@testable import Vault
import XCTest

final class VaultErrorWordingTests: XCTestCase {
    func testTheStoppedKeyringNamesTheCommandThatStoppedItAndTheOneThatStartsIt() {
        let error = VaultError.headlessKeyringStopped()
        XCTAssertEqual(error.message, "hostbook's keyring is locked (not running: 'hostbook vault lock' stopped it)")
        XCTAssertEqual(error.hint, "Run 'eval \"$(hostbook vault unlock)\"' to unlock it with your login keyring's passphrase.")
        XCTAssertEqual(error.exitCode, .failure)
        XCTAssertEqual(VaultError.noService().message, VaultError.noService().text, "without a cause, the vault's own text")
    }
}
