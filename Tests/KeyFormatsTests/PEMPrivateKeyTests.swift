// PEM and PKCS#8 private keys: every fixture in testkeys/pem (made by
// testkeys/make-pem-ppk-cert-keys.sh with ssh-keygen and openssl) and OpenSSH's own PEM
// test keys must give the fingerprint ssh-keygen printed for them.
import XCTest
import SecureMemory
@testable import KeyFormats

final class PEMPrivateKeyTests: XCTestCase {
    let passphrase = try! Fixtures.passphrase(Fixtures.testkeys("pem/PASSPHRASE.txt"))

    func rows() throws -> [[String: String]] { try Fixtures.manifest("pem") }

    /// The fixtures that hold a key hostbook reads (not the refused ones).
    func keyRows() throws -> [[String: String]] {
        try rows().filter { ["pem-pkcs1", "pem-sec1", "pkcs8"].contains($0["format"]!) }
    }

    func testEveryFixtureParsesToTheExpectedKey() throws {
        let rows = try keyRows()
        XCTAssertGreaterThanOrEqual(rows.count, 20)
        for row in rows {
            let file = row["file"]!
            let bytes = try Fixtures.bytes(Fixtures.testkeys("pem/" + file))
            let encrypted = row["cipher"] != "-"
            XCTAssertEqual(try PEMPrivateKey.isEncrypted(bytes), encrypted, file)
            XCTAssertEqual(PrivateKeyFile.detect(bytes), .pem, file)
            let imported = try PrivateKeyFile.parse(bytes, passphrase: encrypted ? passphrase : nil)
            let expected = try Fixtures.fingerprint(Fixtures.testkeys("pem/\(row["base"]!).fp"))
            XCTAssertEqual(imported.key.publicKey.sha256Fingerprint, expected, file)
            XCTAssertEqual(imported.format.rawValue, row["format"], file)
            XCTAssertEqual(imported.cipher, encrypted ? row["cipher"] : nil, file)
            XCTAssertEqual(imported.key.comment, "", file)
            XCTAssertNoThrow(try imported.key.validate(), file)
        }
    }

    func testWrongPassphraseIsToldApartFromDamage() throws {
        for row in try keyRows() where row["cipher"] != "-" {
            let bytes = try Fixtures.bytes(Fixtures.testkeys("pem/" + row["file"]!))
            for wrong in ["wrong passphrase", "", "hostbook-fixture-pas"] {
                let e = assertKeyError(.wrongPassphrase, row["file"]!) { try PEMPrivateKey.parse(bytes, passphrase: Fixtures.secret(wrong)) }
                XCTAssertEqual(e?.reason, "incorrect passphrase")
            }
        }
    }

    func testMissingPassphraseIsRequiredNotPrompted() throws {
        for row in try keyRows() where row["cipher"] != "-" {
            let bytes = try Fixtures.bytes(Fixtures.testkeys("pem/" + row["file"]!))
            assertKeyError(.passphraseRequired, row["file"]!) { try PEMPrivateKey.parse(bytes, passphrase: nil) }
        }
    }

    func testUnsupportedKeysSayWhy() throws {
        let expected: [String: String] = [
            "dsa": "DSA keys are not supported (OpenSSH 10.0 removed them); use an Ed25519, ECDSA or RSA key",
            "dsa.pkcs8": "DSA keys are not supported (OpenSSH 10.0 removed them); use an Ed25519, ECDSA or RSA key",
            "secp256k1": "the EC curve 'secp256k1' is not supported; OpenSSH supports only P-256, P-384 and P-521",
            "ecdsa256.pkcs8-too-many-iterations": "the PKCS#8 key asks for 5000000 key-derivation iterations, more than hostbook allows (4194304)",
            "ecdsa256.pkcs8-pbes1-md5-des": "the PKCS#8 encryption (PBE-MD5-DES) uses DES-CBC, which OpenSSL does not provide; re-encrypt the key with PBES2 and AES-256-CBC",
        ]
        for row in try rows() where row["format"] == "unsupported" {
            let file = row["file"]!
            let bytes = try Fixtures.bytes(Fixtures.testkeys("pem/" + file))
            let e = assertKeyError(.unsupported, file) { try PEMPrivateKey.parse(bytes, passphrase: passphrase) }
            if let want = expected[file] { XCTAssertEqual(e?.reason, want) }
            // Refused before a passphrase is needed.
            assertKeyError(.unsupported, file) { try PEMPrivateKey.parse(bytes, passphrase: nil) }
            XCTAssertFalse(e?.reason.isEmpty ?? true)
        }
    }

    func testDamagedFilesNeverCrashAndAreReported() throws {
        for row in try keyRows() {
            let file = row["file"]!
            let encrypted = row["cipher"] != "-"
            let bytes = try Fixtures.bytes(Fixtures.testkeys("pem/" + file))
            for (what, damaged) in Damage.variants(of: bytes, flips: 12) {
                do {
                    let k = try PEMPrivateKey.parse(damaged, passphrase: passphrase)
                    // A change in the base64 padding bits or after END can leave the key intact.
                    // An Ed25519 PKCS#8 key stores only the seed: any 32 bytes are a valid key.
                    if row["base"] == "ed25519" && !encrypted { continue }
                    let expected = try Fixtures.fingerprint(Fixtures.testkeys("pem/\(row["base"]!).fp"))
                    XCTAssertEqual(k.key.publicKey.sha256Fingerprint, expected, "\(file): \(what) gave a different key")
                } catch let e as KeyFormatError {
                    // In encrypted PKCS#8 a change to an algorithm identifier names an algorithm
                    // OpenSSL does not have: that is reported as unsupported.
                    let allowed: [KeyFormatError.Kind] = !encrypted ? [.invalid]
                        : row["format"] == "pkcs8" ? [.invalid, .wrongPassphrase, .unsupported] : [.invalid, .wrongPassphrase]
                    XCTAssertTrue(allowed.contains(e.kind), "\(file) \(what): \(e.kind) \(e.reason)")
                    XCTAssertFalse(e.reason.contains("error:"), "raw OpenSSL code leaked: \(e.reason)")
                }
            }
        }
    }

    /// DEK-Info files have no MAC: after decryption, bad padding ("bad decrypt") and DER
    /// that does not parse both mean the passphrase was wrong (OpenSSH says the same).
    func testUndecodableDERAfterCorrectDecryptionIsAWrongPassphrase() throws {
        let rows = try rows().filter { $0["format"] == "wrong-passphrase" }
        XCTAssertEqual(rows.map { $0["file"]! }, ["not-der-inside.aes128"])
        let bytes = try Fixtures.bytes(Fixtures.testkeys("pem/not-der-inside.aes128"))
        XCTAssertTrue(try PEMPrivateKey.isEncrypted(bytes))
        assertKeyError(.wrongPassphrase) { try PEMPrivateKey.parse(bytes, passphrase: passphrase) }
        assertKeyError(.passphraseRequired) { try PEMPrivateKey.parse(bytes, passphrase: nil) }
    }

    /// Every path leaves OpenSSL's per-thread error queue empty, so no stale error
    /// reaches a later message.
    func testOpenSSLErrorQueueIsLeftEmpty() throws {
        let inputs: [(String, SecretBytes?)] = [
            ("rsa.aes256", Fixtures.secret("wrong")), ("rsa.pkcs8-aes128", Fixtures.secret("wrong")),
            ("ecdsa256.pkcs8-pbes1-md5-des", passphrase), ("secp256k1", nil), ("rsa.des3", passphrase),
            ("not-der-inside.aes128", passphrase),
        ]
        for (file, pass) in inputs {
            let bytes = try Fixtures.bytes(Fixtures.testkeys("pem/" + file))
            _ = try? PEMPrivateKey.parse(bytes, passphrase: pass)
            XCTAssertEqual(OpenSSLErrors.drain().map(\.text), [], file)
            var damaged = bytes
            damaged[damaged.count / 2] = UInt8(ascii: "A") == damaged[damaged.count / 2] ? UInt8(ascii: "B") : UInt8(ascii: "A")
            _ = try? PEMPrivateKey.parse(damaged, passphrase: pass)
            XCTAssertEqual(OpenSSLErrors.drain().map(\.text), [], file + " damaged")
        }
    }

    func testArmourErrors() {
        let cases: [(String, String)] = [
            ("-----BEGIN RSA PRIVATE KEY-----\nAAAA\n", "the PEM block has no END line (the file is truncated)"),
            ("-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n", "the PEM END line does not match '-----BEGIN RSA PRIVATE KEY-----'"),
            ("-----BEGIN RSA PRIVATE KEY-----\n!!!!\n-----END RSA PRIVATE KEY-----\n", "the PEM body is not valid base64"),
            ("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n", "this is a public key ('PUBLIC KEY'), not a private key"),
            ("-----BEGIN EC PRIVATE KEY-----\nMAA=\n-----END EC PRIVATE KEY-----\n", "the EC PRIVATE KEY data is damaged (not a valid SEC1 ECPrivateKey)"),
            ("-----BEGIN ENCRYPTED PRIVATE KEY-----\nMAA=\n-----END ENCRYPTED PRIVATE KEY-----\n", "the encrypted PKCS#8 structure is damaged (not a valid EncryptedPrivateKeyInfo)"),
            ("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,XYZ\n\nAAAA\n-----END RSA PRIVATE KEY-----\n",
             "the DEK-Info header is malformed (expected 'CIPHER,IV-IN-HEX')"),
        ]
        for (text, reason) in cases {
            let e = assertKeyError(.invalid) { try PEMPrivateKey.parse(Array(text.utf8), passphrase: nil) }
            XCTAssertEqual(e?.reason, reason)
        }
        let unknownCipher = "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: ROT13-CBC,00112233445566778899AABBCCDDEEFF\n\nAAAA\n-----END RSA PRIVATE KEY-----\n"
        for pass in [nil, Fixtures.secret("x")] {
            let e = assertKeyError(.unsupported) { try PEMPrivateKey.parse(Array(unknownCipher.utf8), passphrase: pass) }
            XCTAssertEqual(e?.reason, "the PEM cipher ROT13-CBC is not supported (OpenSSL does not provide it); re-encrypt the key with AES-256-CBC")
        }
    }

    func testCRLFAndNoFinalNewlineAreAccepted() throws {
        let text = try Fixtures.text(Fixtures.testkeys("pem/ecdsa256.aes128"))
        let crlf = text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
        let trimmed = String(text.dropLast())
        let expected = try Fixtures.fingerprint(Fixtures.testkeys("pem/ecdsa256.fp"))
        for variant in [crlf, trimmed] {
            let k = try PEMPrivateKey.parse(Array(variant.utf8), passphrase: passphrase)
            XCTAssertEqual(k.key.publicKey.sha256Fingerprint, expected)
        }
    }

    /// The PEM keys of the sshkey set (testkeys/make-sshkey-set.sh), as ssh-keygen -m PEM writes them.
    func testOpenSSHTestKeys() throws {
        let dir = Fixtures.sshkeySet
        let pass = try Fixtures.passphrase(dir.appendingPathComponent("PASSPHRASE"))
        let cases: [(file: String, fp: String, format: PrivateKeyFormat, cipher: String?)] = [
            ("rsa_1", "rsa_1.fp", .pemPKCS1, nil), ("rsa_1_pw", "rsa_1.fp", .pemPKCS1, "AES-128-CBC"),
            ("rsa_2", "rsa_2.fp", .pemPKCS1, nil), ("ecdsa_1", "ecdsa_1.fp", .pemSEC1, nil),
            ("ecdsa_1_pw", "ecdsa_1.fp", .pemSEC1, "AES-128-CBC"), ("ecdsa_2", "ecdsa_2.fp", .pemSEC1, nil),
        ]
        for c in cases {
            let bytes = try Fixtures.bytes(dir.appendingPathComponent(c.file))
            let k = try PrivateKeyFile.parse(bytes, passphrase: c.cipher == nil ? nil : pass)
            XCTAssertEqual(k.key.publicKey.sha256Fingerprint, try Fixtures.fingerprint(dir.appendingPathComponent(c.fp)), c.file)
            XCTAssertEqual(k.format, c.format, c.file)
            XCTAssertEqual(k.cipher, c.cipher, c.file)
        }
        assertKeyError(.wrongPassphrase) { try PEMPrivateKey.parse(try Fixtures.bytes(dir.appendingPathComponent("rsa_1_pw")), passphrase: Fixtures.secret("nope")) }
    }
}
