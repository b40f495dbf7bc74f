// Damaged, truncated and garbage openssh-key-v1 input: always a KeyFormatError with a reason,
// never a crash; AEAD ciphers turn any change to the sealed part into "wrong passphrase"
// (sshkey.c private2_decrypt), and structural damage is found before any cryptography.
import Foundation
import XCTest
import SecureMemory
@testable import KeyFormats
import TestSupport

final class OpenSSHDamageTests: XCTestCase {
    func fixture(_ name: String) throws -> [UInt8] {
        try Fixtures.bytes(Fixtures.opensshFixtures.appendingPathComponent(name))
    }

    var passphrase: SecretBytes {
        get throws { SecretBytes(copying: try Fixtures.bytes(Fixtures.opensshFixtures.appendingPathComponent("PASSPHRASE"))) }
    }

    /// The decoded blob of an armoured key, and a way to re-armour a changed blob.
    func blob(_ text: [UInt8]) throws -> [UInt8] { try OpenSSHArmour.decode(text).withUnsafeBytes { Array($0) } }
    func armour(_ blob: [UInt8]) -> [UInt8] { OpenSSHArmour.encode(SecretBytes(copying: blob)).withUnsafeBytes { Array($0) } }

    /// Parses, and reports the error kind (nil on success). Any other error type fails the test.
    func outcome(_ bytes: [UInt8], _ pass: SecretBytes?, _ label: String) -> KeyFormatError.Kind? {
        do {
            _ = try OpenSSHPrivateKey.parse(bytes, passphrase: pass)
            return nil
        } catch let e as KeyFormatError {
            XCTAssertFalse(e.reason.isEmpty, label)
            XCTAssertFalse(e.reason.contains("\n"), label)
            return e.kind
        } catch {
            XCTFail("\(label): unexpected error type \(error)")
            return nil
        }
    }

    func testTruncatedTextIsInvalid() throws {
        for name in ["ed25519_none", "rsa2048_none", "ecdsa521_aes256-gcm"] {
            let text = try fixture(name)
            let pass = try passphrase
            // The END line is what is missing for every cut before it.
            let endLine = text.count - "-----END OPENSSH PRIVATE KEY-----\n".utf8.count
            for cut in stride(from: 0, to: endLine, by: 7) {
                XCTAssertEqual(outcome(Array(text[..<cut]), pass, "\(name) cut at \(cut)"), .invalid, "\(name) cut at \(cut)")
            }
        }
    }

    func testTruncatedBlobIsInvalidWithAReason() throws {
        let b = try blob(try fixture("ed25519_none"))
        for cut in 0..<b.count {
            XCTAssertEqual(outcome(armour(Array(b[..<cut])), nil, "cut \(cut)"), .invalid, "cut \(cut)")
        }
        XCTAssertThrowsError(try OpenSSHPrivateKey.parse(armour(Array(b.dropLast(8))), passphrase: nil)) {
            XCTAssertEqual(($0 as? KeyFormatError)?.reason, "the private section is cut short (the file is truncated)")
        }
        XCTAssertThrowsError(try OpenSSHPrivateKey.parse(armour(b + [0]), passphrase: nil)) {
            XCTAssertEqual(($0 as? KeyFormatError)?.reason, "the key data has 1 unexpected trailing bytes")
        }
    }

    func testEveryBitFlipInAnUnencryptedKeyIsCaughtOrHarmless() throws {
        for name in ["ed25519_none", "ecdsa256_none", "rsa2048_none"] {
            let b = try blob(try fixture(name))
            let original = try OpenSSHPrivateKey.parse(try fixture(name), passphrase: nil).key
            for i in 0..<b.count {
                var damaged = b
                damaged[i] ^= 0x01 << UInt8(i % 8)
                switch outcome(armour(damaged), nil, "\(name) byte \(i)") {
                case nil:
                    // Only the comment (or a check integer pair changed alike) may change harmlessly.
                    let parsed = try OpenSSHPrivateKey.parse(armour(damaged), passphrase: nil).key
                    XCTAssertEqual(parsed.publicKey, original.publicKey, "\(name) byte \(i)")
                case .some(let kind):
                    XCTAssertTrue([.invalid, .unsupported].contains(kind), "\(name) byte \(i): \(kind)")
                }
            }
        }
    }

    func testEveryBitFlipInAnAEADSectionIsAWrongPassphrase() throws {
        let pass = try passphrase
        for name in ["ed25519_aes256-gcm", "ed25519_chacha20-poly1305"] {
            let b = try blob(try fixture(name))
            let env = try b.withUnsafeBytes { try OpenSSHEnvelope.parse($0) }
            for i in stride(from: env.sectionRange.lowerBound, to: env.tagRange.upperBound, by: 5) {
                var damaged = b
                damaged[i] ^= 0x80
                XCTAssertEqual(outcome(armour(damaged), pass, "\(name) byte \(i)"), .wrongPassphrase, "\(name) byte \(i)")
            }
        }
    }

    func testFlippedCheckIntegerInACTRKeyIsAWrongPassphrase() throws {
        let pass = try passphrase
        let b = try blob(try fixture("ed25519_aes256-ctr"))
        let env = try b.withUnsafeBytes { try OpenSSHEnvelope.parse($0) }
        var damaged = b
        damaged[env.sectionRange.lowerBound] ^= 0x10
        XCTAssertEqual(outcome(armour(damaged), pass, "check int"), .wrongPassphrase)
    }

    func testStructuralErrorsHaveClearReasons() throws {
        let b = try blob(try fixture("ed25519_aes256-ctr"))
        // Cipher name "aes256-ctr" → "aes256-CTR" (case matters: cipher.c cipher_by_name uses
        // strcmp).
        let cipherAt = 15 + 4
        var wrongCase = b
        wrongCase[cipherAt + 7] = UInt8(ascii: "C")
        XCTAssertThrowsError(try OpenSSHPrivateKey.parse(armour(wrongCase), passphrase: nil)) {
            XCTAssertEqual($0 as? KeyFormatError, .unsupported("the key is encrypted with 'aes256-Ctr', a cipher OpenSSH does not know"))
        }
        var badMagic = b
        badMagic[0] = UInt8(ascii: "O")
        XCTAssertThrowsError(try OpenSSHPrivateKey.parse(armour(badMagic), passphrase: nil)) {
            XCTAssertEqual($0 as? KeyFormatError, .invalid("the key data does not start with 'openssh-key-v1' (damaged file)"))
        }
        XCTAssertThrowsError(try OpenSSHPrivateKey.parse(Array("hello".utf8), passphrase: nil)) {
            XCTAssertEqual($0 as? KeyFormatError,
                           .invalid("not an OpenSSH private key: the first line is not '-----BEGIN OPENSSH PRIVATE KEY-----'"))
        }
        var text = try fixture("ed25519_none")
        text[100] = UInt8(ascii: "*")
        XCTAssertThrowsError(try OpenSSHPrivateKey.parse(text, passphrase: nil)) {
            XCTAssertEqual($0 as? KeyFormatError, .invalid("the key data contains a character that is not base64"))
        }
    }

    /// Any round count is read (as OpenSSH does), but the structure is checked before the
    /// KDF runs: this file would take days to derive, and fails at once on its missing key.
    func testHugeRoundsAreReadAndTheStructureCheckedBeforeAnyWork() throws {
        var w = SSHWriter()
        w.writeRaw(OpenSSHEnvelope.magic)
        w.writeString("aes256-ctr")
        w.writeString("bcrypt")
        var o = SSHWriter()
        o.writeString([UInt8](repeating: 1, count: 16))
        o.writeUInt32(4_000_000_000)
        w.writeString(o.bytes)
        w.writeUInt32(1)
        XCTAssertThrowsError(try OpenSSHPrivateKey.parse(armour(w.bytes), passphrase: SecretBytes(copying: [1]))) {
            XCTAssertEqual(($0 as? KeyFormatError)?.kind, .invalid)
        }
        XCTAssertThrowsError(try OpenSSHPrivateKey.bcryptRounds(armour(w.bytes)))
    }

    func testGarbageNeverCrashes() throws {
        var rng = SeededGenerator()
        let header = Array("-----BEGIN OPENSSH PRIVATE KEY-----\n".utf8)
        let magic = OpenSSHEnvelope.magic
        for i in 0..<300 {
            let n = Int.random(in: 0..<400, using: &rng)
            var junk = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if i % 2 == 0 { junk = magic + junk }
            _ = outcome(armour(junk), nil, "garbage \(i)")
            _ = outcome(header + junk, nil, "raw garbage \(i)")
        }
    }

    func testTolerantArmour() throws {
        // OpenSSH itself refuses some of these (sshkey.c private2_uudecode); reading them is
        // harmless and helps with keys that went through Windows editors or mail.
        let text = String(decoding: try fixture("ed25519_none"), as: UTF8.self)
        let expected = try OpenSSHPrivateKey.parse(Array(text.utf8), passphrase: nil).key.publicKey
        var body = text.split(separator: "\n").dropFirst().dropLast().joined()
        let variants: [(String, String)] = [
            ("CRLF", text.replacingOccurrences(of: "\n", with: "\r\n")),
            ("no final newline", String(text.dropLast())),
            ("leading blank lines", "\n\n" + text),
            ("one long line", "-----BEGIN OPENSSH PRIVATE KEY-----\n\(body)\n-----END OPENSSH PRIVATE KEY-----\n"),
            ("text after END", text + "trailing words\n"),
        ]
        for (label, variant) in variants {
            XCTAssertEqual(try OpenSSHPrivateKey.parse(Array(variant.utf8), passphrase: nil).key.publicKey, expected, label)
        }
        body.removeLast(4)
        XCTAssertThrowsError(try OpenSSHPrivateKey.parse(Array("-----BEGIN OPENSSH PRIVATE KEY-----\n\(body)\n-----END OPENSSH PRIVATE KEY-----\n".utf8), passphrase: nil))
    }
}
