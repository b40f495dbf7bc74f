// Replays every input in fuzz/crashers/<target>/ (crashers the fuzzers found, plus
// hand-written tricky inputs named handwritten-*) through the same calls as the fuzz
// target of that name (fuzz/targets/<target>.swift). Each must only not crash.
// A new fuzz target adds its calls to `targets` below.
import XCTest
import SecureMemory
@testable import KeyFormats

final class FuzzRegressionTests: XCTestCase {
    static let passphrase = SecretBytes(copying: Array("hostbook-fixture-pass".utf8))

    let targets: [String: ([UInt8]) -> Void] = [
        "pem": { bytes in
            _ = try? PEMPrivateKey.isEncrypted(bytes)
            _ = try? PEMPrivateKey.parse(bytes, passphrase: nil)
            _ = try? PEMPrivateKey.parse(bytes, passphrase: FuzzRegressionTests.passphrase)
        },
        "ppk": { bytes in
            _ = try? PPKFile.isEncrypted(bytes)
            _ = try? PPKFile.parse(bytes, passphrase: nil)
            if let envelope = try? PPKEnvelope.parse(bytes) {
                if let a = envelope.argon2, a.memory > 65_536 || a.passes > 4 { return }
                _ = try? PPKFile.parse(bytes, passphrase: FuzzRegressionTests.passphrase)
                if let key = try? PublicKey(blob: envelope.publicBlob) {
                    _ = try? PPKPrivateBlob.key(publicKey: key, privateBlob: envelope.privateBlob)
                }
            }
        },
        "openssh-key": { bytes in
            _ = try? OpenSSHPrivateKey.isEncrypted(bytes)
            _ = try? OpenSSHPrivateKey.parse(bytes, passphrase: nil)
            // As the fuzz target: the passphrase only when the bcrypt rounds are few.
            if FuzzRegressionTests.fewBcryptRounds(bytes) {
                _ = try? OpenSSHPrivateKey.parse(bytes, passphrase: FuzzRegressionTests.passphrase)
            }
        },
        "public-line": { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            _ = try? PublicKeyLine.parse(text)
            _ = try? AuthorizedKeysLine.parse(text)
            _ = try? PublicKeyFile.parse(bytes)
        },
        "rfc4716": { bytes in
            guard let line = try? RFC4716PublicKey.parse(bytes) else { return }
            let again = try? RFC4716PublicKey.parse(Array(RFC4716PublicKey.encode(line.key, comment: line.comment).utf8))
            XCTAssertEqual(again?.key, line.key)
        },
        "certificate": { bytes in
            if let cert = try? Certificate(blob: bytes) {
                _ = cert.verifySignature()
                _ = cert.isValid(at: 1_700_000_000)
            }
            _ = try? PublicKeyFile.certificateLine(String(decoding: bytes, as: UTF8.self))
        },
        // The calls of fuzz/targets/known-hosts-line.swift live beside the known_hosts tests.
        "known-hosts-line": { bytes in KnownHostsFuzzRegressionTests.exercise(bytes) },
    ]

    /// Targets of other modules, replayed by their own test targets.
    static let replayedElsewhere: Set<String> = [
        "agent-message", // Tests/AgentTests/AgentFuzzRegressionTests.swift
        "ssh-config",    // Tests/SSHConfigTests/SSHConfigFuzzRegressionTests.swift
    ]

    /// As the fuzz target: the parser's own reading of the rounds, at most 64.
    static func fewBcryptRounds(_ bytes: [UInt8]) -> Bool {
        guard let rounds = try? OpenSSHPrivateKey.bcryptRounds(bytes) else { return true }
        return rounds <= 64
    }

    func testEveryCrasherIsReplayedWithoutCrashing() throws {
        let dir = Fixtures.root.appendingPathComponent("fuzz/crashers")
        let folders = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        var replayed = 0
        for target in folders where !Self.replayedElsewhere.contains(target) {
            let folder = dir.appendingPathComponent(target)
            guard let run = targets[target] else {
                XCTFail("fuzz/crashers/\(target) has no replay entry in FuzzRegressionTests.targets")
                continue
            }
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where !file.hasPrefix(".") {
                run(try Fixtures.bytes(folder.appendingPathComponent(file)))
                replayed += 1
            }
        }
        XCTAssertGreaterThanOrEqual(replayed, 7, "the hand-written inputs are missing")
    }

    func testBcryptRoundsGuardReadsTheKDFOptions() throws {
        let corpus = Fixtures.root.appendingPathComponent("fuzz/corpus/openssh-key")
        XCTAssertEqual(try OpenSSHPrivateKey.bcryptRounds(try Fixtures.bytes(corpus.appendingPathComponent("ed25519-aes256ctr"))), 1)
        XCTAssertNil(try OpenSSHPrivateKey.bcryptRounds(try Fixtures.bytes(corpus.appendingPathComponent("ed25519"))))
        XCTAssertTrue(Self.fewBcryptRounds(try Fixtures.bytes(corpus.appendingPathComponent("ed25519-aes256ctr"))))
    }

    /// The first crasher: an RFC 4716 comment of invalid UTF-8 was re-encoded with a
    /// character index computed from its byte length (String index out of bounds).
    func testRFC4716CommentWrapIsByCharacterNotByte() throws {
        let key = try PublicKeyLine.parse(Fixtures.text(Fixtures.testkeys("pem/ed25519.pub"))).key
        for comment in [String(repeating: "\u{FFFD}", count: 60), String(repeating: "é", count: 100), String(repeating: "a b ", count: 40)] {
            let text = RFC4716PublicKey.encode(key, comment: comment)
            XCTAssertTrue(text.split(separator: "\n").allSatisfy { $0.utf8.count <= 72 })
            XCTAssertEqual(try RFC4716PublicKey.parse(Array(text.utf8)).comment, comment)
        }
    }
}
