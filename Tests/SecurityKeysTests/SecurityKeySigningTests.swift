// Signing with sk keys made by ssh-keygen on OpenSSH's software authenticator, through the
// provider loaded in-process and through OpenSSH's ssh-sk-helper; ssh-keygen -Y verify and
// hostbook's own verifier accept what comes back.
import Foundation
import KeyFormats
import SecurityKeys
import TestSupport
import XCTest

final class SecurityKeySigningTests: XCTestCase {
    override func setUpWithError() throws { try SKDummy.require() }

    private func middlewares() throws -> [(String, any SecurityKeyMiddleware)] {
        [("library", try SecurityKeyLibrary.load(path: SKDummy.path)),
         ("ssh-sk-helper", try SSHSKHelper(provider: SKDummy.path))]
    }

    func testSSHSIGSignaturesOfBothKindsVerifyWithSSHKeygen() throws {
        let folder = try TempFolder()
        for type in ["ed25519-sk", "ecdsa-sk"] {
            let (key, _) = try SKDummy.keygen(type, in: folder, name: type)
            let message = Array("commit \(type)\n".utf8)
            let request = try SSHSIGRequest(namespace: "git", message: message)
            for (how, middleware) in try middlewares() {
                let blob = try middleware.sign(key, data: request.bytes, pin: nil)
                XCTAssertTrue(key.publicKey.verifies(signatureBlob: blob, over: request.bytes), "\(type) via \(how)")
                let file = SSHSignatureFile(publicKey: key.publicKey, namespace: "git", hashAlgorithm: request.hashAlgorithm, signature: blob)
                let verified = try SKDummy.verifySSHSIG(file.armored, message: message, key: key.publicKey, namespace: "git", in: folder)
                XCTAssertEqual(verified.status, 0, "\(type) via \(how): \(verified.stderr)")
                // The same signature does not verify another message.
                let other = try SKDummy.verifySSHSIG(file.armored, message: message + [0x0a], key: key.publicKey, namespace: "git", in: folder)
                XCTAssertNotEqual(other.status, 0, "\(type) via \(how)")
            }
        }
    }

    func testTheSignerEntryPointUsesTheProviderTheEnvironmentNames() throws {
        let folder = try TempFolder()
        let (key, _) = try SKDummy.keygen("ed25519-sk", in: folder)
        XCTAssertEqual(SecurityKeyProvider(environment: ["SSH_SK_PROVIDER": SKDummy.path]), .library(path: SKDummy.path))
        XCTAssertEqual(SecurityKeyProvider(environment: [:]), .builtIn)
        XCTAssertEqual(SecurityKeyProvider(environment: ["SSH_SK_PROVIDER": "internal"]), .builtIn)
        let signer = SecurityKeySigner(provider: .library(path: SKDummy.path))
        let data = Array("user authentication".utf8)
        let blob = try signer.sign(key, data: data)
        XCTAssertTrue(key.publicKey.verifies(signatureBlob: blob, over: data))
        // A key that is not an sk key is refused, not signed by the vault path.
        let plain = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "plain")
        XCTAssertThrowsError(try signer.sign(plain, data: data)) { XCTAssertEqual($0 as? SecurityKeyError, .notSecurityKey) }
    }

    func testAProviderThatCannotBeLoadedIsATypedError() throws {
        let folder = try TempFolder()
        let (key, _) = try SKDummy.keygen("ed25519-sk", in: folder)
        let missing = folder.file("no-such-provider.so")
        let signer = SecurityKeySigner(provider: .library(path: missing))
        XCTAssertThrowsError(try signer.sign(key, data: [1, 2, 3])) { error in
            guard case .providerNotLoaded(let path, _)? = error as? SecurityKeyError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, missing)
        }
        // A library without the interface (libc has no sk_api_version).
        XCTAssertThrowsError(try SecurityKeyLibrary.load(path: "libc.so.6")) { error in
            guard case .providerNotLoaded(_, let reason)? = error as? SecurityKeyError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("sk_api_version"), reason)
        }
    }

    func testTheHelperReportsAProviderItCannotLoad() throws {
        let folder = try TempFolder()
        let (key, _) = try SKDummy.keygen("ed25519-sk", in: folder)
        let helper = try SSHSKHelper(provider: folder.file("missing.so"))
        XCTAssertThrowsError(try helper.sign(key, data: [1, 2, 3], pin: nil)) { error in
            XCTAssertNotNil(error as? SecurityKeyError, "\(error)")
        }
    }
}
