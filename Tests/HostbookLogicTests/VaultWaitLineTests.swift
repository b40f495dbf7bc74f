// The line hostbook writes while a vault call waits on a keyring's dialog (VaultWaitLine,
// given to the Vault library at start): the program that answers is named by its
// executable's name, which anyone can choose, so it is escaped (issue 23). When the call
// says it (a frozen keyring, on a terminal) is VaultTests' (VaultFailureTests).
@testable import hostbook
import XCTest

final class VaultWaitLineTests: XCTestCase {
    func testTheLineNamesTheServiceEscapedOrTheKeyring() {
        XCTAssertEqual(VaultWaitLine.text(service: "gnome-keyring-daemon", giveUpAfter: "60 s"),
                       "hostbook: waiting for gnome-keyring-daemon; answer its dialog if it shows one (unlock, access request); giving up after 60 s\n")
        XCTAssertEqual(VaultWaitLine.text(service: "keyring\u{1b}[31m", giveUpAfter: "60 s"),
                       "hostbook: waiting for keyring\\u{1b}[31m; answer its dialog if it shows one (unlock, access request); giving up after 60 s\n")
        XCTAssertEqual(VaultWaitLine.text(service: nil, giveUpAfter: "1.5 s"),
                       "hostbook: waiting for the keyring; answer its dialog if it shows one (unlock, access request); giving up after 1.5 s\n")
    }
}
