// SSHSIG signature files (PROTOCOL.sshsig) against ssh-keygen as the oracle: a file made by
// `ssh-keygen -Y sign -n hostbook-bundle` verifies in SSHSignatureFile and names its key; a
// file hostbook makes (SSHSIGRequest's signed data, PrivateKey.sign, the armour) is accepted
// by `ssh-keygen -Y verify -n hostbook-bundle -I id -f allowed_signers`; a wrong namespace,
// one flipped byte in the message or the signature, and another key are refused by both. The
// armour reader: every truncation and damaged armour refused, never a crash.
import Foundation
import XCTest
import SecureMemory
@testable import KeyFormats

final class SSHSignatureFileTests: XCTestCase {
    let namespace = "hostbook-bundle"
    let message = Array("format 1\nserial 7\nhost web\n".utf8)
    var dir: URL!

    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh-keygen"), "ssh-keygen is not installed")
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("hostbook-sshsig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    static let keyTypes: [(KeyGenerationType, Int?)] = [(.ed25519, nil), (.ecdsa, 256), (.ecdsa, 521), (.rsa, 2048)]

    func keyFile(_ key: PrivateKey, _ name: String) throws -> URL {
        let file = dir.appendingPathComponent(name)
        try OpenSSHPrivateKey.encode(key, passphrase: nil).withUnsafeBytes { Data($0) }.write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return file
    }

    func write(_ bytes: [UInt8], _ name: String) throws -> URL {
        let file = dir.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file
    }

    /// hostbook's own signature file over `message` (what the agent would return, signed here).
    func hostbookSignature(_ key: PrivateKey, namespace: String? = nil, message: [UInt8]? = nil) throws -> SSHSignatureFile {
        let data = try SSHSignatureFile.signedData(namespace: namespace ?? self.namespace, message: message ?? self.message)
        return SSHSignatureFile.wrap(signature: try key.sign(data, rsaHash: .sha512), by: key.publicKey, namespace: namespace ?? self.namespace)
    }

    /// `ssh-keygen -Y verify` of `signature` over `message` with `key` as the allowed signer.
    func sshKeygenVerifies(_ signature: [UInt8], message: [UInt8], signer: PublicKey, namespace: String? = nil) throws -> Bool {
        let allowed = try write(Array("id \(signer.line())\n".utf8), "allowed_signers")
        let sig = try write(signature, "message.sig")
        let msg = try write(message, "message")
        let (status, _, _) = try SSHKeygenOracleTests.run(["-Y", "verify", "-n", namespace ?? self.namespace, "-I", "id", "-f", allowed.path, "-s", sig.path], input: msg)
        return status == 0
    }

    func testSSHKeygenSignatureVerifiesInHostbook() throws {
        for (type, bits) in Self.keyTypes {
            let key = try PrivateKeyGenerator.generate(type, bits: bits, comment: "oracle")
            let file = try keyFile(key, "key-\(type)-\(bits ?? 0)")
            let msg = try write(message, "message")
            try? FileManager.default.removeItem(atPath: msg.path + ".sig")
            let (status, _, err) = try SSHKeygenOracleTests.run(["-Y", "sign", "-f", file.path, "-n", namespace, msg.path])
            XCTAssertEqual(status, 0, "ssh-keygen -Y sign: \(err)")
            let armored = Array(try Data(contentsOf: URL(fileURLWithPath: msg.path + ".sig")))
            let parsed = try SSHSignatureFile.parse(armored)
            XCTAssertEqual(parsed.armored, armored, "hostbook renders the file byte for byte as ssh-keygen wrote it (\(type))")
            XCTAssertEqual(try parsed.verify(message: message, namespace: namespace), key.publicKey, "\(type)")
            XCTAssertThrowsError(try parsed.verify(message: message, namespace: "git"), "wrong namespace (\(type))")
            var changed = message
            changed[3] ^= 0x01
            XCTAssertThrowsError(try parsed.verify(message: changed, namespace: namespace), "changed message (\(type))")
            var flipped = parsed.signature
            flipped[flipped.count - 5] ^= 0x01
            let damaged = SSHSignatureFile(publicKey: parsed.publicKey, namespace: namespace, hashAlgorithm: parsed.hashAlgorithm, signature: flipped)
            XCTAssertThrowsError(try damaged.verify(message: message, namespace: namespace), "changed signature (\(type))")
            let other = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "other")
            let swapped = SSHSignatureFile(publicKey: other.publicKey, namespace: namespace, hashAlgorithm: parsed.hashAlgorithm, signature: parsed.signature)
            XCTAssertThrowsError(try swapped.verify(message: message, namespace: namespace), "another key (\(type))")
        }
    }

    func testHostbookSignatureVerifiesInSSHKeygen() throws {
        for (type, bits) in Self.keyTypes {
            let key = try PrivateKeyGenerator.generate(type, bits: bits, comment: "oracle")
            let file = try hostbookSignature(key)
            XCTAssertTrue(try sshKeygenVerifies(file.armored, message: message, signer: key.publicKey), "\(type) \(bits ?? 0)")
            XCTAssertFalse(try sshKeygenVerifies(file.armored, message: message, signer: key.publicKey, namespace: "git"), "namespace (\(type))")
            var changed = message
            changed[0] ^= 0x20
            XCTAssertFalse(try sshKeygenVerifies(file.armored, message: changed, signer: key.publicKey), "message (\(type))")
            let other = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "other")
            XCTAssertFalse(try sshKeygenVerifies(file.armored, message: message, signer: other.publicKey), "other signer (\(type))")
            // One flipped byte in the signature blob: ssh-keygen and hostbook both refuse.
            var blob = file.blob
            blob[blob.count - 3] ^= 0x40
            let flippedArmour = SSHSignatureFile.armour(blob)
            XCTAssertFalse(try sshKeygenVerifies(flippedArmour, message: message, signer: key.publicKey), "flipped signature (\(type))")
            XCTAssertThrowsError(try SSHSignatureFile.parse(flippedArmour).verify(message: message, namespace: namespace))
        }
    }

    func testEveryFlippedByteOfAFileIsRefused() throws {
        let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "flip")
        let armored = try hostbookSignature(key).armored
        for i in armored.indices {
            var damaged = armored
            damaged[i] ^= 0x01
            if let parsed = try? SSHSignatureFile.parse(damaged), (try? parsed.verify(message: message, namespace: namespace)) != nil {
                // Only a change the armour reader ignores may still verify: none exists for
                // a base64 letter (canonical decoding) or the markers.
                XCTFail("byte \(i) flipped still verifies")
            }
        }
    }

    func testArmourIsBoundedAndStrict() throws {
        let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "armour")
        let armored = try hostbookSignature(key).armored
        for length in 0..<armored.count - 1 {
            XCTAssertThrowsError(try SSHSignatureFile.parse(Array(armored.prefix(length))), "\(length) bytes")
        }
        // CRLF line ends and a missing final newline are read, as sshsig_dearmor reads them.
        let crlf = Array(String(decoding: armored, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)
        XCTAssertNoThrow(try SSHSignatureFile.parse(crlf).verify(message: message, namespace: namespace))
        XCTAssertNoThrow(try SSHSignatureFile.parse(Array(armored.dropLast())).verify(message: message, namespace: namespace))
        XCTAssertThrowsError(try SSHSignatureFile.parse(Array(" ".utf8) + armored), "leading space")
        XCTAssertThrowsError(try SSHSignatureFile.parse(armored + Array("x\n".utf8)), "text after the footer")
        XCTAssertThrowsError(try SSHSignatureFile.parse(armored + [UInt8](repeating: 0x0a, count: SSHSignatureFile.maxLength)), "too long")
        // A blob with a version above 1, or a trailing byte, is refused (sshsig_parse_preamble).
        var blob = try hostbookSignature(key).blob
        blob[9] = 2
        XCTAssertThrowsError(try SSHSignatureFile.parse(SSHSignatureFile.armour(blob)))
        XCTAssertThrowsError(try SSHSignatureFile.parse(SSHSignatureFile.armour(try hostbookSignature(key).blob + [0])))
    }

    func testSignedDataIsWhatTheAgentRecognises() throws {
        let data = try SSHSignatureFile.signedData(namespace: namespace, message: message)
        let request = try XCTUnwrap(SSHSIGRequest.parse(data))
        XCTAssertEqual(request.namespace, namespace)
        XCTAssertEqual(request.hashAlgorithm, "sha512")
        XCTAssertEqual(request.hash, Digest.sha512(message))
        XCTAssertEqual(request.bytes, data)
    }
}
