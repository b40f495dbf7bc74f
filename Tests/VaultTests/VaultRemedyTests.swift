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

/// A machine without libsecret: the vault's first call throws one VaultError naming the
/// library and its Debian package, where it used to stop the process.
final class LibSecretMissingTests: XCTestCase {
    func testALibraryThatCannotBeLoadedIsAVaultErrorNamingItsPackage() {
        guard case .failure(let error) = LibSecret.load("libhostbook-absent.so.0") else {
            return XCTFail("a library that does not exist loaded")
        }
        XCTAssertEqual(error.kind, .failed)
        XCTAssertTrue(error.text.hasPrefix("the vault needs libhostbook-absent.so.0, which cannot be loaded ("), error.text)
        XCTAssertEqual(error.advice, "Install the Debian package libsecret-1-0 (apt-get install libsecret-1-0).")
        XCTAssertNil(error.remedy)
    }

    func testTheInstalledLibraryLoads() throws {
        XCTAssertNoThrow(try LibSecret.requireLoaded())
    }
}
