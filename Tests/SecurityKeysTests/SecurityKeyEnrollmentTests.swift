// New credentials through the provider: the key record hostbook keeps is one ssh-keygen
// reads (-y gives the same public key) and signs with.
import Foundation
import KeyFormats
import SecurityKeys
import TestSupport
import XCTest

final class SecurityKeyEnrollmentTests: XCTestCase {
    override func setUpWithError() throws { try SKDummy.require() }

    func testEnrolledKeysAreOnesSSHKeygenReadsAndSignsWith() throws {
        let folder = try TempFolder()
        let middlewares: [(String, any SecurityKeyMiddleware)] = [
            ("library", try SecurityKeyLibrary.load(path: SKDummy.path)), ("ssh-sk-helper", try SSHSKHelper(provider: SKDummy.path)),
        ]
        for (how, middleware) in middlewares {
            for kind in SecurityKeyKind.allCases {
                let request = SecurityKeyEnrollment(kind: kind, application: "ssh:deploy", flags: [.userPresence, .resident], comment: "made")
                let (key, _) = try middleware.enroll(request, pin: nil)
                guard let handle = SecurityKeyHandle(key) else { return XCTFail("not an sk key via \(how)") }
                XCTAssertEqual(handle.kind, kind)
                XCTAssertEqual(handle.application, "ssh:deploy")
                XCTAssertFalse(handle.keyHandle.isEmpty)
                XCTAssertTrue(handle.flags.contains(.resident), "\(how)")

                let file = folder.file("\(how)-\(kind.rawValue)")
                let text = try OpenSSHPrivateKey.encode(key, passphrase: nil)
                try Data(text.withUnsafeBytes { Array($0) }).write(to: URL(fileURLWithPath: file))
                chmod(file, 0o600)
                let read = try Tool.run("/usr/bin/ssh-keygen", ["-y", "-f", file])
                XCTAssertEqual(read.status, 0, read.stderr)
                XCTAssertEqual(try PublicKeyLine.parse(read.stdout).key, key.publicKey, "\(how) \(kind)")

                // ssh-keygen signs with the record through the same authenticator, and hostbook verifies it.
                let message = folder.file("msg")
                try Data("hello".utf8).write(to: URL(fileURLWithPath: message))
                let signed = try Tool.run("/usr/bin/ssh-keygen", ["-Y", "sign", "-w", SKDummy.path, "-n", "file", "-f", file, message])
                XCTAssertEqual(signed.status, 0, signed.stderr)
                let sig = try SSHSignatureFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: message + ".sig"))))
                XCTAssertEqual(sig.publicKey, key.publicKey)
                try FileManager.default.removeItem(atPath: message + ".sig")
            }
        }
    }

    func testLoadingResidentKeysFromAProviderWithoutThemIsUnsupported() throws {
        let library = try SecurityKeyLibrary.load(path: SKDummy.path)
        XCTAssertThrowsError(try library.loadResidentKeys(pin: nil)) { error in
            guard case .unsupported? = error as? SecurityKeyError else { return XCTFail("\(error)") }
        }
        let helper = try SSHSKHelper(provider: SKDummy.path)
        XCTAssertThrowsError(try helper.loadResidentKeys(pin: nil)) { error in
            XCTAssertNotNil(error as? SecurityKeyError, "\(error)")
        }
    }
}
