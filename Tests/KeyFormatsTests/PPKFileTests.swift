// PuTTY .ppk v2 and v3: every fixture in testkeys/ppk (puttygen 0.78 from OpenSSH keys)
// must give the original key's fingerprint and comment; wrong, missing and unsupported
// cases are reported as such.
import XCTest
import SecureMemory
@testable import KeyFormats

final class PPKFileTests: XCTestCase {
    let passphrase = try! Fixtures.passphrase(Fixtures.testkeys("ppk/PASSPHRASE.txt"))

    func rows(_ expect: String) throws -> [[String: String]] {
        try Fixtures.manifest("ppk").filter { $0["expect"] == expect }
    }

    /// The comment of the OpenSSH key the .ppk was made from (the `.pub` third field on).
    func originalComment(_ base: String) throws -> String {
        let line = try Fixtures.text(Fixtures.testkeys("ppk/\(base).pub")).trimmingCharacters(in: .newlines)
        return line.split(separator: " ", maxSplits: 2).dropFirst(2).first.map(String.init) ?? ""
    }

    func testEveryFixtureParsesToTheOriginalKey() throws {
        let rows = try rows("ok")
        XCTAssertGreaterThanOrEqual(rows.count, 20)
        for row in rows {
            let file = row["file"]!
            let bytes = try Fixtures.bytes(Fixtures.testkeys("ppk/" + file))
            XCTAssertEqual(PrivateKeyFile.detect(bytes), .ppk, file)
            let encrypted = try PPKFile.isEncrypted(bytes)
            XCTAssertEqual(encrypted, file.contains("aes") || file.contains("argon"), file)
            let imported = try PrivateKeyFile.parse(bytes, passphrase: encrypted ? passphrase : nil)
            XCTAssertEqual(imported.key.publicKey.sha256Fingerprint,
                           try Fixtures.fingerprint(Fixtures.testkeys("ppk/\(row["base"]!).fp")), file)
            XCTAssertEqual(imported.format.rawValue, row["format"], file)
            XCTAssertEqual(imported.cipher, encrypted ? "aes256-cbc" : nil, file)
            XCTAssertEqual(imported.key.comment, try originalComment(row["base"]!), file)
        }
    }

    func testWrongAndMissingPassphrase() throws {
        for row in try rows("ok") where row["file"]!.contains("aes") || row["file"]!.contains("argon") {
            let bytes = try Fixtures.bytes(Fixtures.testkeys("ppk/" + row["file"]!))
            assertKeyError(.wrongPassphrase, row["file"]!) { try PPKFile.parse(bytes, passphrase: Fixtures.secret("not it")) }
            assertKeyError(.passphraseRequired, row["file"]!) { try PPKFile.parse(bytes, passphrase: nil) }
        }
    }

    func testWhatLibsodiumCannotDoIsUnsupported() throws {
        let reasons: [String: String] = [
            "ed25519.v3-argon2d.ppk": "Argon2d is not supported (libsodium has no Argon2d); re-save the key with puttygen using Argon2id",
            "ed25519.v3-parallel2.ppk": "Argon2 parallelism 2 is not supported (libsodium computes only parallelism 1); re-save the key with puttygen --ppk-param parallelism=1",
            "ecdsa256.v3-argon2i-1pass.ppk": "Argon2i with 1 passes is not supported (libsodium needs at least 3); re-save the key with puttygen using Argon2id",
        ]
        let rows = try rows("unsupported")
        XCTAssertEqual(Set(rows.map { $0["file"]! }), Set(reasons.keys))
        for row in rows {
            let bytes = try Fixtures.bytes(Fixtures.testkeys("ppk/" + row["file"]!))
            // Refused before a passphrase is asked for, and with one.
            for pass in [nil, passphrase] {
                let e = assertKeyError(.unsupported, row["file"]!) { try PPKFile.parse(bytes, passphrase: pass) }
                XCTAssertEqual(e?.reason, reasons[row["file"]!])
            }
        }
    }

    /// Argon2 costs above what puttygen writes (memory 8192 KiB, its default; passes at most
    /// 64) are refused before the passphrase is asked for; at the limits the KDF runs (an
    /// edited cost then derives other keys: the MAC fails, which is a wrong passphrase).
    func testArgon2CostAbovePuttygensIsRefused() throws {
        let text = try Fixtures.text(Fixtures.testkeys("ppk/ed25519.v3-argon2id.ppk"))
        func edited(memory: UInt64, passes: UInt64) -> [UInt8] {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                if line.hasPrefix("Argon2-Memory:") { return "Argon2-Memory: \(memory)" }
                if line.hasPrefix("Argon2-Passes:") { return "Argon2-Passes: \(passes)" }
                return String(line)
            }
            return Array(lines.joined(separator: "\n").utf8)
        }
        let hint = "re-save the key with puttygen ('puttygen KEY.ppk -o NEW.ppk' uses its defaults)"
        let refused: [(UInt64, UInt64, String)] = [
            (8193, 1, "the key asks Argon2 for 8193 KiB of memory, more than puttygen writes (8192 KiB); " + hint),
            (1 << 20, 1000, "the key asks Argon2 for 1048576 KiB of memory, more than puttygen writes (8192 KiB); " + hint),
            (8192, 65, "the key asks Argon2 for 65 passes, more than puttygen writes (at most 64); " + hint),
        ]
        for (memory, passes, reason) in refused {
            for pass in [nil, passphrase] {
                let e = assertKeyError(.unsupported, "\(memory) KiB × \(passes)") { try PPKFile.parse(edited(memory: memory, passes: passes), passphrase: pass) }
                XCTAssertEqual(e?.reason, reason)
            }
        }
        XCTAssertNoThrow(try PPKFile.parse(edited(memory: 8192, passes: 1), passphrase: passphrase), "the fixture's own cost")
        assertKeyError(.wrongPassphrase, "8 KiB × 64") { try PPKFile.parse(edited(memory: 8, passes: 64), passphrase: passphrase) }
    }

    func testDamagedUnencryptedFileIsAMACMismatch() throws {
        var text = try Fixtures.text(Fixtures.testkeys("ppk/ed25519.v3.ppk"))
        text = text.replacingOccurrences(of: "Comment: ed25519", with: "Comment: ED25519")
        let e = assertKeyError(.invalid) { try PPKFile.parse(Array(text.utf8), passphrase: nil) }
        XCTAssertEqual(e?.reason, "the file is damaged: MAC mismatch")
    }

    func testDamagedFilesNeverCrash() throws {
        for row in try Fixtures.manifest("ppk") {
            let file = row["file"]!
            let bytes = try Fixtures.bytes(Fixtures.testkeys("ppk/" + file))
            let encrypted = try PPKFile.isEncrypted(bytes)
            for (what, damaged) in Damage.variants(of: bytes, flips: encrypted ? 6 : 16) {
                do {
                    let k = try PPKFile.parse(damaged, passphrase: passphrase)
                    XCTAssertEqual(k.key.publicKey.sha256Fingerprint,
                                   try Fixtures.fingerprint(Fixtures.testkeys("ppk/\(row["base"]!).fp")), "\(file): \(what)")
                } catch let e as KeyFormatError {
                    // A changed Argon2 parameter can name something unsupported.
                    let allowed: [KeyFormatError.Kind] = encrypted ? [.invalid, .wrongPassphrase, .unsupported] : [.invalid, .unsupported]
                    XCTAssertTrue(allowed.contains(e.kind), "\(file) \(what): \(e.kind) \(e.reason)")
                }
            }
        }
    }

    func testEnvelopeErrors() {
        let cases: [(String, KeyFormatError.Kind, String)] = [
            ("PuTTY-User-Key-File-1: ssh-rsa\n", .unsupported, "PuTTY key file version '1' is not supported (only 2 and 3 exist)"),
            ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: aes128-ctr\n", .unsupported, "PuTTY key encryption 'aes128-ctr' is not supported (only none and aes256-cbc exist)"),
            ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\n", .invalid, "the PuTTY key file ends before 'Comment:' (truncated)"),
            ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: x\nPublic-Lines: 99999\n", .invalid, "'Public-Lines' is 99999; more lines than any key needs"),
            ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: x\nPublic-Lines: 3\nAAAA\n", .invalid, "the PuTTY key file ends inside the Public-Lines (truncated)"),
        ]
        for (text, kind, reason) in cases {
            let e = assertKeyError(kind, reason) { try PPKFile.parse(Array(text.utf8), passphrase: nil) }
            XCTAssertEqual(e?.reason, reason)
        }
    }
}
