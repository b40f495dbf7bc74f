// A real PKCS#11 module (SoftHSM2) loaded in-process: the public keys equal what
// `ssh-keygen -D` lists, signatures verify, a wrong PIN is refused.
import KeyFormats
import SecureMemory
import TestSupport
@testable import Tokens
import XCTest

final class TokenModuleTests: XCTestCase {
    override func setUpWithError() throws { try SoftHSMProcessToken.require() }

    private func token() throws -> (TokenModule, TokenInfo) {
        let module = try TokenModule.load(path: SoftHSMProcessToken.module)
        return (module, try module.token(label: SoftHSMProcessToken.label))
    }

    func testThePublicKeysAreTheOnesSSHKeygenListsAndTheTokenIsNamed() throws {
        let (module, token) = try token()
        XCTAssertEqual(token.label, "hb")
        XCTAssertTrue(token.manufacturer.hasPrefix("SoftHSM"), token.manufacturer)
        XCTAssertFalse(token.serial.isEmpty)
        XCTAssertTrue(token.loginRequired)
        let keys = try module.publicKeys(on: token)
        XCTAssertEqual(Set(keys.map(\.id)), [[0x01], [0x02]])
        XCTAssertEqual(Set(keys.map(\.label)), ["k1", "k2"])
        let keygen = try XCTUnwrap(Tool.sshKeygen)
        let listed = try Tool.run(keygen, ["-D", SoftHSMProcessToken.module])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let theirs = Set(listed.stdout.split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") })
        let ours = Set(keys.map { $0.publicKey.line() })
        XCTAssertEqual(ours, theirs)
        XCTAssertEqual(Set(keys.map(\.publicKey.type)), ["ssh-rsa", "ecdsa-sha2-nistp256"])
    }

    func testSignaturesOfEveryAlgorithmVerify() throws {
        let (module, token) = try token()
        let pin = SecretBytes(copying: Array(SoftHSMProcessToken.pin.utf8))
        let message = Array("session identifier and request".utf8)
        for key in try module.publicKeys(on: token) {
            let flagsToTry: [UInt32] = key.publicKey.type == "ssh-rsa" ? [2, 4] : [0]
            for flags in flagsToTry {
                let blob = try module.sign(message, flags: flags, key: key.publicKey, id: key.id, on: token, pin: pin)
                XCTAssertTrue(key.publicKey.verifies(signatureBlob: blob, over: message), "\(key.publicKey.type) flags \(flags)")
                XCTAssertFalse(key.publicKey.verifies(signatureBlob: blob, over: message + [0]))
            }
        }
    }

    func testAWrongPINIsRefusedAndSignsNothing() throws {
        let (module, token) = try token()
        let key = try XCTUnwrap(module.publicKeys(on: token).first)
        let wrong = SecretBytes(copying: Array("9999".utf8))
        XCTAssertThrowsError(try module.checkPIN(wrong, on: token)) { XCTAssertEqual($0 as? TokenError, .wrongPIN) }
        XCTAssertThrowsError(try module.sign([1, 2, 3], flags: 2, key: key.publicKey, id: key.id, on: token, pin: wrong)) {
            XCTAssertEqual($0 as? TokenError, .wrongPIN)
        }
        // No login outlives a call: without a PIN the private key is not even found.
        XCTAssertThrowsError(try module.sign([1, 2, 3], flags: 2, key: key.publicKey, id: key.id, on: token, pin: nil))
        XCTAssertNoThrow(try module.checkPIN(SecretBytes(copying: Array(SoftHSMProcessToken.pin.utf8)), on: token))
    }

    func testModulesOutsideTheSystemFoldersNeedToBeNamed() {
        XCTAssertNil(TokenModulePath.check("/usr/lib/softhsm/libsofthsm2.so"))
        XCTAssertNil(TokenModulePath.check("/usr/lib/x86_64-linux-gnu/opensc-pkcs11.so"))
        XCTAssertNil(TokenModulePath.check("/usr/local/lib/libykcs11.so"))
        for path in ["libsofthsm2.so", "/tmp/evil.so", "/usr/lib/../../tmp/evil.so", "/usr/libx/evil.so", "/usr/lib//evil.so", "/home/u/p11.so"] {
            XCTAssertEqual(TokenModulePath.check(path), .moduleNotAllowed(path: path), path)
        }
        XCTAssertNil(TokenModulePath.check("/home/u/p11.so", allowed: ["/home/u/p11.so"]))
        XCTAssertEqual(TokenModulePath.check("relative.so", allowed: ["relative.so"]), .moduleNotAllowed(path: "relative.so"))
        XCTAssertThrowsError(try TokenModule.load(path: "/tmp/evil.so")) { XCTAssertEqual($0 as? TokenError, .moduleNotAllowed(path: "/tmp/evil.so")) }
    }
}

/// The PINs an agent session holds: cached only once accepted, dropped on lock.
final class TokenPINsTests: XCTestCase {
    override func setUpWithError() throws { try SoftHSMProcessToken.require() }

    func testAWrongPINIsNotHeldAndARightOneIsUntilDropped() throws {
        let module = try TokenModule.load(path: SoftHSMProcessToken.module)
        let token = try module.token(label: SoftHSMProcessToken.label)
        let key = try XCTUnwrap(module.publicKeys(on: token).first { $0.publicKey.type.hasPrefix("ecdsa") })
        let pins = TokenPINs()
        let message: [UInt8] = Array("login".utf8)

        XCTAssertThrowsError(try pins.sign(message, flags: 0, key: key, on: token, module: module) { SecretBytes(copying: Array("0000".utf8)) }) {
            XCTAssertEqual($0 as? TokenError, .wrongPIN)
        }
        XCTAssertTrue(pins.isEmpty, "a refused PIN is not held")

        var asked = 0
        let ask = { () -> SecretBytes? in asked += 1; return SecretBytes(copying: Array(SoftHSMProcessToken.pin.utf8)) }
        for _ in 0..<2 {
            let blob = try pins.sign(message, flags: 0, key: key, on: token, module: module, ask: ask)
            XCTAssertTrue(key.publicKey.verifies(signatureBlob: blob, over: message))
        }
        XCTAssertEqual(asked, 1, "the PIN is asked once per session")
        XCTAssertNotNil(pins.pin(for: token))

        pins.drop()
        XCTAssertTrue(pins.isEmpty)
        XCTAssertThrowsError(try pins.sign(message, flags: 0, key: key, on: token, module: module) { nil }) {
            XCTAssertEqual($0 as? TokenError, .pinRequired, "after drop nothing signs without asking again")
        }
        _ = try pins.sign(message, flags: 0, key: key, on: token, module: module, ask: ask)
        XCTAssertEqual(asked, 2)
    }
}
