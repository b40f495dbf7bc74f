// One key set in every form OpenSSH writes (testkeys/sshkey, made by
// testkeys/make-sshkey-set.sh, laid out as OpenSSH's regress/unittests/sshkey/testdata):
// every openssh-key-v1 private key that OpenSSH 9.2 reads loads, with and without its
// passphrase as appropriate, and matches ssh-keygen's `.fp` (SHA-256) and `.fp.bb`
// (Bubble Babble) files. PEM files belong to the PEM parser's tests.
import Foundation
import XCTest
import SecureMemory
@testable import KeyFormats
import TestSupport

final class UpstreamSSHKeyTests: XCTestCase {
    /// (private key file, fingerprint base name, comment, needs a security key)
    static let keys: [(String, String, String, Bool)] = [
        ("ed25519_1", "ed25519_1", "hostbook sshkey ed25519 #1", false),
        ("ed25519_1_pw", "ed25519_1", "hostbook sshkey ed25519 #1", false),
        ("ed25519_2", "ed25519_2", "hostbook sshkey ed25519 #2", false),
        ("rsa_n", "rsa_1", "", false),
        ("rsa_n_pw", "rsa_1", "", false),
        ("ecdsa_n", "ecdsa_1", "", false),
        ("ecdsa_n_pw", "ecdsa_1", "", false),
        ("ecdsa_sk1", "ecdsa_sk1", "", true),
        ("ecdsa_sk1_pw", "ecdsa_sk1", "", true),
        ("ecdsa_sk2", "ecdsa_sk2", "", true),
        ("ed25519_sk1", "ed25519_sk1", "", true),
        ("ed25519_sk1_pw", "ed25519_sk1", "", true),
        ("ed25519_sk2", "ed25519_sk2", "", true),
    ]

    func testPrivateKeysMatchUpstreamFingerprints() throws {
        let dir = Fixtures.sshkeySet
        let pass = SecretBytes(copying: try Fixtures.bytes(dir.appendingPathComponent("PASSPHRASE")))
        for (file, base, _, sk) in Self.keys {
            let bytes = try Fixtures.bytes(dir.appendingPathComponent(file))
            let encrypted = file.hasSuffix("_pw")
            XCTAssertEqual(try OpenSSHPrivateKey.isEncrypted(bytes), encrypted, file)
            let imported = try OpenSSHPrivateKey.parse(bytes, passphrase: encrypted ? pass : nil)
            let key = imported.key.publicKey
            let fp = try Fixtures.text(dir.appendingPathComponent(base + ".fp")).trimmingCharacters(in: .whitespacesAndNewlines)
            let bb = try Fixtures.text(dir.appendingPathComponent(base + ".fp.bb")).trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertEqual(key.sha256Fingerprint, fp, file)
            XCTAssertEqual(key.bubbleBabble, bb, file)
            XCTAssertEqual(imported.key.needsSecurityKey, sk, file)
            // The public line file holds the same key.
            let pub = try PublicKeyLine.parse(try Fixtures.text(dir.appendingPathComponent(base + ".pub")))
            XCTAssertEqual(pub.key, key, file)
            if encrypted {
                XCTAssertThrowsError(try OpenSSHPrivateKey.parse(bytes, passphrase: nil)) {
                    XCTAssertEqual($0 as? KeyFormatError, .passphraseRequired, file)
                }
            }
        }
    }

    func testCommentsAndCiphers() throws {
        let dir = Fixtures.sshkeySet
        let pass = SecretBytes(copying: try Fixtures.bytes(dir.appendingPathComponent("PASSPHRASE")))
        let expectedCipher = ["ed25519_1_pw": "aes256-ctr", "rsa_n_pw": "aes256-cbc", "ecdsa_n_pw": "aes256-cbc",
                              "ecdsa_sk1_pw": "aes256-ctr", "ed25519_sk1_pw": "aes256-ctr"]
        for (file, _, comment, _) in Self.keys {
            let imported = try OpenSSHPrivateKey.parse(try Fixtures.bytes(dir.appendingPathComponent(file)),
                                                       passphrase: file.hasSuffix("_pw") ? pass : nil)
            if !file.contains("sk") { XCTAssertEqual(imported.key.comment, comment, file) }
            XCTAssertEqual(imported.cipher, expectedCipher[file], file)
        }
    }

    func testEveryBubbleBabbleFileMatchesItsPublicKey() throws {
        let dir = Fixtures.sshkeySet
        let bases = ["rsa_1", "rsa_2", "ecdsa_1", "ecdsa_2", "ed25519_1", "ed25519_2",
                     "ecdsa_sk1", "ecdsa_sk2", "ed25519_sk1", "ed25519_sk2"]
        for base in bases {
            let pub = try PublicKeyLine.parse(try Fixtures.text(dir.appendingPathComponent(base + ".pub")))
            let bb = try Fixtures.text(dir.appendingPathComponent(base + ".fp.bb")).trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertEqual(pub.key.bubbleBabble, bb, base)
        }
    }

    func testBubbleBabbleOfOddAndEmptyInput() {
        // ssh-keygen's algorithm on short inputs (odd length ends in a three-letter group).
        XCTAssertEqual(BubbleBabble.encode([]), "xexax")
        XCTAssertEqual(BubbleBabble.encode(Array("1234567890".utf8)), "xesef-disof-gytuf-katof-movif-baxux")
        XCTAssertEqual(BubbleBabble.encode(Array("Pineapple".utf8)), "xigak-nyryk-humil-bosek-sonax")
    }

    func testMLDSAKeysAreUnsupportedNotCrashes() throws {
        let dir = Fixtures.sshkeySet
        let pass = SecretBytes(copying: try Fixtures.bytes(dir.appendingPathComponent("PASSPHRASE")))
        for file in ["mldsa44_ed25519_1", "mldsa44_ed25519_1_pw", "mldsa44_ed25519_2"] {
            XCTAssertThrowsError(try OpenSSHPrivateKey.parse(try Fixtures.bytes(dir.appendingPathComponent(file)), passphrase: pass)) {
                XCTAssertEqual(($0 as? KeyFormatError)?.kind, .unsupported, file)
                XCTAssertEqual(($0 as? KeyFormatError)?.reason, "unknown or unsupported key type 'ssh-mldsa44-ed25519@openssh.com'", file)
            }
        }
    }

    func testRandomartOfEveryUpstreamPublicKeyMatchesSSHKeygen() throws {
        let dir = Fixtures.sshkeySet
        let keygen = try XCTUnwrap(Tool.sshKeygen, "ssh-keygen (openssh-client) is a test dependency")
        // Includes the security-key types, whose titles ([ED25519-SK 256], 16 characters)
        // are the longest a plain key has.
        for base in ["rsa_1", "rsa_2", "ecdsa_1", "ecdsa_2", "ed25519_1", "ed25519_2",
                     "ecdsa_sk1", "ecdsa_sk2", "ed25519_sk1", "ed25519_sk2"] {
            let file = dir.appendingPathComponent(base + ".pub")
            let key = try PublicKeyLine.parse(try Fixtures.text(file)).key
            for (flags, picture) in [([String](), key.randomart), (["-E", "md5"], key.md5Randomart)] {
                let r = try Tool.run(keygen, ["-lv"] + flags + ["-f", file.path])
                XCTAssertEqual(r.status, 0, r.stderr)
                let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
                XCTAssertEqual(picture, lines[1...11].joined(separator: "\n"), "\(base) \(flags)")
            }
        }
    }

    /// The PEM files go through the PEM parser: the fingerprints ssh-keygen gives.
    func testPEMPrivateKeysMatchUpstreamFingerprints() throws {
        let dir = Fixtures.sshkeySet
        let pass = SecretBytes(copying: try Fixtures.bytes(dir.appendingPathComponent("PASSPHRASE")))
        let files = [("rsa_1", "rsa_1"), ("rsa_1_pw", "rsa_1"), ("rsa_1_sha1", "rsa_1"), ("rsa_1_sha512", "rsa_1"),
                     ("rsa_2", "rsa_2"), ("ecdsa_1", "ecdsa_1"), ("ecdsa_1_pw", "ecdsa_1"), ("ecdsa_2", "ecdsa_2")]
        for (file, base) in files {
            let bytes = try Fixtures.bytes(dir.appendingPathComponent(file))
            let imported = try PrivateKeyFile.parse(bytes, passphrase: file.hasSuffix("_pw") ? pass : nil)
            let fp = try Fixtures.text(dir.appendingPathComponent(base + ".fp")).trimmingCharacters(in: .whitespacesAndNewlines)
            let bb = try Fixtures.text(dir.appendingPathComponent(base + ".fp.bb")).trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertEqual(imported.key.publicKey.sha256Fingerprint, fp, file)
            XCTAssertEqual(imported.key.publicKey.bubbleBabble, bb, file)
            // And the vault form of it (openssh-key-v1, unencrypted) reads back as the same key.
            let vaultForm = try OpenSSHPrivateKey.encode(imported.key, passphrase: nil)
            let back = try OpenSSHPrivateKey.parse(vaultForm.withUnsafeBytes { Array($0) }, passphrase: nil)
            XCTAssertEqual(back.key.publicKey, imported.key.publicKey, file)
        }
    }
}
