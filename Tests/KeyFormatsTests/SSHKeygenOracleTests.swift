// ssh-keygen as the oracle for the private halves: keys hostbook generates, and keys read
// from PEM / PKCS#8 / .ppk, are written as openssh-key-v1 (OpenSSHPrivateKey.encode) and
// must load in ssh-keygen 9.2 (`ssh-keygen -y`), giving the same public key, and must sign
// (`ssh-keygen -Y sign`) a message that verifies (`-Y check-novalidate`). Signing proves the
// private half: a wrong field order (PPK's RSA d, p, q, iqmp) gives a bad signature.
import Foundation
import XCTest
import SecureMemory
@testable import KeyFormats

final class SSHKeygenOracleTests: XCTestCase {
    static func sshKeygenPublicLine(of key: PrivateKey) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hostbook-oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("key")
        let encoded = try OpenSSHPrivateKey.encode(key, passphrase: nil)
        try encoded.withUnsafeBytes { Data($0) }.write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let (status, text, errText) = try run(["-y", "-f", file.path])
        XCTAssertEqual(status, 0, "ssh-keygen -y: \(errText)")

        let message = dir.appendingPathComponent("message")
        try Data("hostbook oracle message\n".utf8).write(to: message)
        let (signStatus, _, signErr) = try run(["-Y", "sign", "-f", file.path, "-n", "hostbook", message.path])
        XCTAssertEqual(signStatus, 0, "ssh-keygen -Y sign: \(signErr)")
        let (checkStatus, _, checkErr) = try run(["-Y", "check-novalidate", "-n", "hostbook", "-s", message.path + ".sig"], input: message)
        XCTAssertEqual(checkStatus, 0, "ssh-keygen -Y check-novalidate: \(checkErr)")
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func run(_ arguments: [String], input: URL? = nil) throws -> (Int32, String, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        p.arguments = arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        p.standardInput = try input.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text, errText)
    }

    func check(_ key: PrivateKey, _ what: String) throws {
        let line = try Self.sshKeygenPublicLine(of: key)
        XCTAssertEqual(try PublicKeyLine.parse(line).key, key.publicKey, what)
    }

    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh-keygen"), "ssh-keygen is not installed")
    }

    func testGeneratedKeysLoadInSSHKeygen() throws {
        for (type, bits) in [(KeyGenerationType.ed25519, nil), (.ecdsa, 256), (.ecdsa, 384), (.ecdsa, 521), (.rsa, 2048)] as [(KeyGenerationType, Int?)] {
            try check(try PrivateKeyGenerator.generate(type, bits: bits, comment: "oracle"), "\(type) \(bits ?? 0)")
        }
    }

    func testImportedPEMAndPPKKeysLoadInSSHKeygen() throws {
        let pemPass = try Fixtures.passphrase(Fixtures.testkeys("pem/PASSPHRASE.txt"))
        for file in ["rsa.aes256", "ecdsa521.des3", "ed25519.pkcs8-aes256", "rsa.pkcs8-pbes1-3des"] {
            try check(try PEMPrivateKey.parse(Fixtures.bytes(Fixtures.testkeys("pem/" + file)), passphrase: pemPass).key, file)
        }
        let ppkPass = try Fixtures.passphrase(Fixtures.testkeys("ppk/PASSPHRASE.txt"))
        for file in ["rsa.v3-argon2id.ppk", "rsa.v2.ppk", "ecdsa384.v2-aes.ppk", "ed25519.v3-argon2i.ppk"] {
            try check(try PPKFile.parse(Fixtures.bytes(Fixtures.testkeys("ppk/" + file)), passphrase: ppkPass).key, file)
        }
    }
}
