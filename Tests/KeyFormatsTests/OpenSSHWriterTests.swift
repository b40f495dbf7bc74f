// The openssh-key-v1 writer: what it writes is exactly the text form OpenSSH reads
// (checked with the real `ssh-keygen -y`), and it reads back to the same key.
import Foundation
import XCTest
import SecureMemory
@testable import KeyFormats
import TestSupport

final class OpenSSHWriterTests: XCTestCase {
    static let bases = ["ed25519_none", "ecdsa256_none", "ecdsa384_none", "ecdsa521_none", "rsa2048_none", "rsa3072_none"]

    func load(_ name: String) throws -> PrivateKey {
        try OpenSSHPrivateKey.parse(try Fixtures.bytes(Fixtures.opensshFixtures.appendingPathComponent(name)), passphrase: nil).key
    }

    func text(_ s: SecretBytes) -> String { s.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    func testUnencryptedOutputHasOpenSSHsExactShape() throws {
        let key = try load("ed25519_none")
        let out = text(try OpenSSHPrivateKey.encode(key, passphrase: nil))
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.first, "-----BEGIN OPENSSH PRIVATE KEY-----")
        XCTAssertEqual(lines[lines.count - 2], "-----END OPENSSH PRIVATE KEY-----")
        XCTAssertEqual(lines.last, "", "final newline")
        for l in lines[1..<lines.count - 3] { XCTAssertEqual(l.count, 70) }
        XCTAssertLessThanOrEqual(lines[lines.count - 3].count, 70)
        // Same length as ssh-keygen's own file for this key (same layout, same padding).
        let original = try Fixtures.text(Fixtures.opensshFixtures.appendingPathComponent("ed25519_none"))
        XCTAssertEqual(out.utf8.count, original.utf8.count)
        XCTAssertFalse(try OpenSSHPrivateKey.isEncrypted(Array(out.utf8)))
    }

    func testEveryTypeRoundTripsThroughOurReader() throws {
        let pass = SecretBytes(copying: Array("round trip".utf8))
        for name in Self.bases {
            let key = try load(name)
            for passphrase in [nil, pass] {
                let written = try OpenSSHPrivateKey.encode(key, passphrase: passphrase, rounds: 2)
                let back = try OpenSSHPrivateKey.parse(written.withUnsafeBytes { Array($0) }, passphrase: passphrase)
                XCTAssertEqual(back.key.publicKey, key.publicKey, name)
                XCTAssertEqual(back.key.comment, key.comment, name)
                XCTAssertEqual(back.cipher, passphrase == nil ? nil : "aes256-ctr", name)
                // Re-encoding the unencrypted form is stable apart from the random check integers.
                let again = try OpenSSHPrivateKey.encode(back.key, passphrase: nil)
                XCTAssertEqual(again.count, try OpenSSHPrivateKey.encode(key, passphrase: nil).count, name)
            }
        }
    }

    func testEveryCipherRoundTripsThroughOurReader() throws {
        let pass = SecretBytes(copying: Array("cipher".utf8))
        let key = try load("ecdsa384_none")
        for cipher in KeyFileCipher.all {
            let written = try OpenSSHPrivateKey.encode(key, passphrase: pass, cipher: cipher, rounds: 1)
            let back = try OpenSSHPrivateKey.parse(written.withUnsafeBytes { Array($0) }, passphrase: pass)
            XCTAssertEqual(back.key.publicKey, key.publicKey, cipher.name)
            XCTAssertEqual(back.cipher, cipher.name)
        }
    }

    func testSSHKeygenReadsWhatWeWrite() throws {
        guard let keygen = Tool.sshKeygen else { throw XCTSkip("ssh-keygen not installed") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hostbook-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let passText = "ssh-keygen reads this"
        let pass = SecretBytes(copying: Array(passText.utf8))
        for name in Self.bases {
            let key = try load(name)
            let expected = key.publicKey.line(comment: key.comment)
            for (label, passphrase) in [("plain", nil), ("encrypted", pass)] as [(String, SecretBytes?)] {
                let file = dir.appendingPathComponent("\(name)-\(label)")
                let written = try OpenSSHPrivateKey.encode(key, passphrase: passphrase, rounds: 2)
                try written.withUnsafeBytes { try Data($0).write(to: file) }
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
                let r = try Tool.run(keygen, ["-y", "-P", passphrase == nil ? "" : passText, "-f", file.path])
                XCTAssertEqual(r.status, 0, "\(name) \(label): \(r.stderr)")
                XCTAssertEqual(r.stdout, expected + "\n", "\(name) \(label)")
            }
        }
        // Every cipher, not only the default one.
        let key = try load("ed25519_none")
        for cipher in KeyFileCipher.all where !cipher.isNone {
            let file = dir.appendingPathComponent("cipher-\(cipher.name)")
            let written = try OpenSSHPrivateKey.encode(key, passphrase: pass, cipher: cipher, rounds: 1)
            try written.withUnsafeBytes { try Data($0).write(to: file) }
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            let r = try Tool.run(keygen, ["-y", "-P", passText, "-f", file.path])
            XCTAssertEqual(r.stdout, key.publicKey.line(comment: key.comment) + "\n", "\(cipher.name): \(r.stderr)")
        }
    }

    func testEmptyPassphraseWritesUnencrypted() throws {
        let key = try load("ed25519_none")
        let out = try OpenSSHPrivateKey.encode(key, passphrase: SecretBytes(count: 0))
        XCTAssertFalse(try OpenSSHPrivateKey.isEncrypted(out.withUnsafeBytes { Array($0) }))
    }

    func testPaddingIsOneTwoThree() throws {
        // A 3-byte comment gives an Ed25519 section of 4+4+(4+11)+(4+32)+(4+64)+(4+3) = 134 bytes,
        // so 2 padding bytes (1, 2) to reach 136.
        var key = try load("ed25519_none")
        key.comment = "abc"
        let section = OpenSSHPrivateSection.build(key, blockSize: 8)
        section.withUnsafeBytes { s in
            XCTAssertEqual(s.count, 136)
            XCTAssertEqual(Array(s[134...]), [1, 2])
            XCTAssertEqual(Array(s[0..<4]), Array(s[4..<8]), "check integers")
        }
    }

    func testSecurityKeysAreWrittenSoSSHKeygenReadsThem() throws {
        let dir = Fixtures.sshkeySet
        guard let keygen = Tool.sshKeygen else { throw XCTSkip("ssh-keygen not installed") }
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("hostbook-sk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        for name in ["ecdsa_sk1", "ecdsa_sk2", "ed25519_sk1", "ed25519_sk2"] {
            let key = try OpenSSHPrivateKey.parse(try Fixtures.bytes(dir.appendingPathComponent(name)), passphrase: nil).key
            let file = tmp.appendingPathComponent(name)
            try OpenSSHPrivateKey.encode(key, passphrase: nil).withUnsafeBytes { try Data($0).write(to: file) }
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            let r = try Tool.run(keygen, ["-y", "-f", file.path])
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
            let expected = try PublicKeyLine.parse(try Fixtures.text(dir.appendingPathComponent(name + ".pub"))).key
            XCTAssertEqual(try PublicKeyLine.parse(r.stdout).key, expected, name)
            // The key handle and flags survive the round trip.
            let back = try OpenSSHPrivateKey.parse(try Fixtures.bytes(file), passphrase: nil).key
            switch (key.algorithm, back.algorithm) {
            case let (.skEd25519(_, _, f1, h1, r1), .skEd25519(_, _, f2, h2, r2)),
                 let (.skECDSA(_, _, _, f1, h1, r1), .skECDSA(_, _, _, f2, h2, r2)):
                XCTAssertEqual(f1, f2); XCTAssertEqual(h1, h2); XCTAssertEqual(r1, r2)
            default:
                XCTFail("\(name) is not a security key after the round trip")
            }
        }
    }
}
