// PrivateKeyEnvelope: a key file's structure read once (what `keys import` does before it asks
// for a passphrase), then decrypted from what was read, any number of times. For every
// OpenSSH, PEM and PuTTY fixture it agrees with PrivateKeyFile.parse: the same key, format and
// cipher, and the same error (kind and words) for a missing or wrong passphrase and for a
// damaged file; the public key and bcrypt rounds it shows are the envelope's.
import Foundation
import XCTest
import SecureMemory
@testable import KeyFormats
import TestSupport

final class PrivateKeyEnvelopeTests: XCTestCase {
    func fixtures() throws -> [(url: URL, passphrase: SecretBytes)] {
        var out: [(URL, SecretBytes)] = []
        for (folder, passFile) in [("openssh", "PASSPHRASE"), ("pem", "PASSPHRASE.txt"), ("ppk", "PASSPHRASE.txt")] {
            let dir = PackageRoot.url.appendingPathComponent("testkeys/\(folder)")
            var pass = try Fixtures.bytes(dir.appendingPathComponent(passFile))
            while pass.last == 0x0a { pass.removeLast() }
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
            where !name.hasPrefix("PASSPHRASE") && !name.hasSuffix(".pub") && !name.hasSuffix(".fp") && name != "MANIFEST" {
                let url = dir.appendingPathComponent(name)
                guard PrivateKeyFile.detect(try Fixtures.bytes(url)) != nil else { continue }
                out.append((url, SecretBytes(copying: pass)))
            }
        }
        return out
    }

    /// The outcome of one parse, comparable: the key's public blob, format and cipher, or the error.
    func outcome(_ body: () throws -> ImportedPrivateKey) -> String {
        do {
            let k = try body()
            return "\(k.key.publicKey.blob) \(k.format) \(k.cipher ?? "-")"
        } catch let e as KeyFormatError {
            return "error \(e.kind) \(e.reason)"
        } catch {
            return "error \(error)"
        }
    }

    func testDecryptingTheEnvelopeAgreesWithParsingTheFile() throws {
        var checked = 0
        for (url, passphrase) in try fixtures() {
            let file = SecretBytes(copying: try Fixtures.bytes(url))
            let opened: PrivateKeyEnvelope
            do { opened = try PrivateKeyEnvelope.open(file) } catch {
                // A file whose structure is refused is refused by parse with the same error.
                XCTAssertEqual(outcome { throw error }, outcome { try PrivateKeyFile.parse(file, passphrase: nil) }, url.lastPathComponent)
                continue
            }
            let wrong = SecretBytes(copying: Array("not the passphrase".utf8))
            // In the order `keys import` tries: none, a wrong one, the right one, all from one envelope.
            for attempt in [nil, wrong, passphrase] {
                XCTAssertEqual(outcome { try opened.decrypt(passphrase: attempt) },
                               outcome { try PrivateKeyFile.parse(file, passphrase: attempt) }, url.lastPathComponent)
            }
            if opened.kind == .openssh {
                XCTAssertEqual(opened.publicKey, try OpenSSHPrivateKey.publicKey(file), url.lastPathComponent)
                XCTAssertEqual(opened.bcryptRounds, try OpenSSHPrivateKey.bcryptRounds(file), url.lastPathComponent)
            } else {
                XCTAssertNil(opened.publicKey)
                XCTAssertNil(opened.bcryptRounds)
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 100)
    }

    func testADamagedEnvelopeIsRefusedWithParsesWords() throws {
        let url = Fixtures.opensshFixtures.appendingPathComponent("ed25519_none")
        var text = try Fixtures.text(url)
        // Cut the base64 body short: the envelope's lengths no longer add up.
        let lines = text.split(separator: "\n")
        text = ([lines[0]] + lines[1..<(lines.count - 2)] + [lines[lines.count - 1]]).joined(separator: "\n") + "\n"
        let file = SecretBytes(copying: Array(text.utf8))
        XCTAssertThrowsError(try PrivateKeyEnvelope.open(file)) { error in
            XCTAssertEqual(outcome { throw error }, outcome { try PrivateKeyFile.parse(file, passphrase: nil) })
        }
    }
}
