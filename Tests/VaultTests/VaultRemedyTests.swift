// A vault failure whose fix is a hostbook command carries that fix as data
// (VaultError.Remedy), not words: the executable words it.
import XCTest
@testable import Vault

final class VaultRemedyTests: XCTestCase {
    func testNoSessionBusToUnlockIsAnUnsetBusRemedy() {
        XCTAssertThrowsError(try UserBusKeyring.unlock(environment: [:], passphrase: { XCTFail("asked"); throw VaultError(.failed, "x") })) { error in
            let e = error as? VaultError
            XCTAssertEqual(e?.kind, .noSessionBus)
            XCTAssertEqual(e?.remedy, .unsetBusThenUnlock)
            XCTAssertNil(e?.advice)
        }
    }

    func testTheKeyringFailuresNameTheirRemedy() {
        XCTAssertEqual(VaultError.noSessionBus(reason: "r").remedy, .desktopOrOwnKeyring)
        XCTAssertEqual(VaultError.sessionBusUnreachable(reason: "r").remedy, .desktopOrOwnKeyring)
        XCTAssertEqual(VaultError.headlessKeyringStopped().remedy, .unlockOwnKeyring)
        XCTAssertEqual(VaultError.headlessKeyringStopped().cause, .stoppedByVaultLock, "the command that stopped it is data too")
        XCTAssertEqual(VaultError.headlessKeyringStopped().text, "hostbook's keyring is locked")
        XCTAssertEqual(VaultError.wrongPassphrase().remedy, .typeLoginPassphrase)
        // A fix that names no hostbook command stays the vault's own advice.
        XCTAssertNil(VaultError.noService().remedy)
        XCTAssertNotNil(VaultError.noService().advice)
    }
}
