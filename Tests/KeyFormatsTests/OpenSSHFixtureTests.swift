// Every key in testkeys/openssh (made by ssh-keygen 9.2 with testkeys/make-openssh-keys.sh:
// each type × each cipher of cipher.c `ciphers[]`, unencrypted, and none+bcrypt) parses,
// and its fingerprints and randomart equal what ssh-keygen printed for it.
import Foundation
import XCTest
import SecureMemory
@testable import KeyFormats

final class OpenSSHFixtureTests: XCTestCase {
    struct Fixture {
        let name: String
        let url: URL
        var encrypted: Bool { !name.hasSuffix("_none") }
        /// The cipher the file name says (`ed25519_aes256-ctr-16rounds` → aes256-ctr).
        var cipherName: String? {
            guard encrypted else { return nil }
            var c = String(name[name.index(after: name.firstIndex(of: "_")!)...])
            if c.hasSuffix("-16rounds") { c.removeLast("-16rounds".count) }
            if c == "none-bcrypt" { return "none" }
            if c.hasSuffix("-gcm") || c.hasPrefix("chacha20") { c += "@openssh.com" }
            return c
        }
        func sibling(_ ext: String) -> URL { url.appendingPathExtension(ext) }
    }

    static func fixtures() throws -> [Fixture] {
        let dir = Fixtures.opensshFixtures
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { !$0.contains(".") && $0 != "PASSPHRASE" && !$0.hasPrefix("dsa") }.sorted()
        return names.map { Fixture(name: $0, url: dir.appendingPathComponent($0)) }
    }

    static func passphrase() throws -> SecretBytes {
        SecretBytes(copying: try Fixtures.bytes(Fixtures.opensshFixtures.appendingPathComponent("PASSPHRASE")))
    }

    /// `256 SHA256:… comment (ED25519)` → ("256", "SHA256:…", "comment", "ED25519").
    static func splitListing(_ line: String) -> (bits: String, fingerprint: String, comment: String, type: String) {
        let first = line.split(separator: "\n")[0]
        let parts = first.split(separator: " ", maxSplits: 2)
        let rest = String(parts[2])
        let open = rest.lastIndex(of: "(")!
        return (String(parts[0]), String(parts[1]), String(rest[..<rest.index(before: open)]),
                String(rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]))
    }

    func testThereAreFixturesForEveryCipher() throws {
        let fixtures = try Self.fixtures()
        XCTAssertEqual(fixtures.count, 80)
        let ciphers = Set(fixtures.compactMap(\.cipherName))
        XCTAssertEqual(ciphers, Set(KeyFileCipher.all.map(\.name)))
    }

    func testEveryFixtureParsesWithSSHKeygenFingerprintsAndRandomart() throws {
        let pass = try Self.passphrase()
        for f in try Self.fixtures() {
            let imported: ImportedPrivateKey
            do {
                imported = try OpenSSHPrivateKey.parse(try Fixtures.bytes(f.url), passphrase: f.encrypted ? pass : nil)
            } catch {
                XCTFail("\(f.name): \(error)"); continue
            }
            let key = imported.key.publicKey
            let listing = Self.splitListing(try Fixtures.text(f.sibling("l")))
            XCTAssertEqual(key.sha256Fingerprint, listing.fingerprint, f.name)
            XCTAssertEqual(String(key.bits), listing.bits, f.name)
            XCTAssertEqual(key.shortTypeName, listing.type, f.name)
            XCTAssertEqual(imported.key.comment, listing.comment, f.name)
            XCTAssertEqual(key.md5Fingerprint, Self.splitListing(try Fixtures.text(f.sibling("l-md5"))).fingerprint, f.name)
            XCTAssertEqual(imported.format, .openssh)
            XCTAssertEqual(imported.cipher, f.cipherName, f.name)

            // -lv prints the listing line, then the picture; each line ends in \n.
            let lv = try Fixtures.text(f.sibling("lv")).split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertEqual(key.randomart, lv[1...11].joined(separator: "\n"), f.name)
            let lvMD5 = try Fixtures.text(f.sibling("lv-md5")).split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertEqual(key.md5Randomart, lvMD5[1...11].joined(separator: "\n"), f.name)

            // The .pub line is the same key.
            let pub = try PublicKeyLine.parse(try Fixtures.text(f.sibling("pub")))
            XCTAssertEqual(pub.key, key, f.name)
        }
    }

    func testEncryptedFixturesNeedThePassphrase() throws {
        let wrong = SecretBytes(copying: Array("not the passphrase".utf8))
        for f in try Self.fixtures() where f.encrypted {
            let bytes = try Fixtures.bytes(f.url)
            XCTAssertEqual(try OpenSSHPrivateKey.isEncrypted(bytes), true, f.name)
            XCTAssertThrowsError(try OpenSSHPrivateKey.parse(bytes, passphrase: nil), f.name) {
                XCTAssertEqual($0 as? KeyFormatError, .passphraseRequired, f.name)
            }
            if f.cipherName == "none" {
                // Cipher none + bcrypt opens with any non-empty passphrase (sshkey.c
                // private2_decrypt).
                XCTAssertNoThrow(try OpenSSHPrivateKey.parse(bytes, passphrase: wrong), f.name)
            } else {
                XCTAssertThrowsError(try OpenSSHPrivateKey.parse(bytes, passphrase: wrong), f.name) {
                    XCTAssertEqual($0 as? KeyFormatError, .wrongPassphrase, f.name)
                }
            }
            XCTAssertThrowsError(try OpenSSHPrivateKey.parse(bytes, passphrase: SecretBytes(count: 0)), f.name) {
                XCTAssertEqual($0 as? KeyFormatError, .wrongPassphrase, f.name)
            }
        }
    }

    func testUnencryptedFixturesIgnoreAPassphrase() throws {
        for f in try Self.fixtures() where !f.encrypted {
            let bytes = try Fixtures.bytes(f.url)
            XCTAssertEqual(try OpenSSHPrivateKey.isEncrypted(bytes), false)
            XCTAssertNoThrow(try OpenSSHPrivateKey.parse(bytes, passphrase: SecretBytes(copying: Array("x".utf8))))
        }
    }

    func testRandomartHeaderWidthsForRSASizes() throws {
        // The title is centred with (17 − length)/2 dashes before it.
        let expected = [
            "rsa1024_none": "+---[RSA 1024]----+",
            "rsa2048_none": "+---[RSA 2048]----+",
            "rsa3072_none": "+---[RSA 3072]----+",
            "rsa4096_none": "+---[RSA 4096]----+",
            "ed25519_none": "+--[ED25519 256]--+",
            "ecdsa256_none": "+---[ECDSA 256]---+",
            "ecdsa521_none": "+---[ECDSA 521]---+",
        ]
        for (name, header) in expected {
            let key = try OpenSSHPrivateKey.parse(try Fixtures.bytes(Fixtures.opensshFixtures.appendingPathComponent(name)), passphrase: nil)
            XCTAssertEqual(String(key.key.publicKey.randomart.split(separator: "\n")[0]), header, name)
            XCTAssertEqual(String(key.key.publicKey.randomart.split(separator: "\n")[10]), "+----[SHA256]-----+", name)
        }
    }

    func testDSAKeysAreRefusedBeforeThePassphrase() throws {
        for name in ["dsa1024_none", "dsa1024_aes256-ctr"] {
            let url = Fixtures.opensshFixtures.appendingPathComponent(name)
            XCTAssertThrowsError(try OpenSSHPrivateKey.parse(try Fixtures.bytes(url), passphrase: nil), name) {
                XCTAssertEqual($0 as? KeyFormatError,
                               .unsupported("DSA keys are not supported (OpenSSH 10.0 removed them); use an Ed25519, ECDSA or RSA key"))
            }
            // The public half is still an ordinary key: its randomart is ssh-keygen's.
            let pub = try PublicKeyLine.parse(try Fixtures.text(url.appendingPathExtension("pub"))).key
            let lv = try Fixtures.text(url.appendingPathExtension("lv")).split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertEqual(pub.randomart, lv[1...11].joined(separator: "\n"), name)
        }
    }
}
