// Private key files read from secure memory (PrivateKeyFile.parse(_: SecretBytes, …), what
// `keys import` uses) give exactly what the [UInt8] entry points give, for every committed
// fixture of every format; and the secure base64 decoder agrees with Base64.decode.
import XCTest
import SecureMemory
@testable import KeyFormats
import TestSupport

final class SecureParsingTests: XCTestCase {
    func testEveryFixtureParsesTheSameFromSecureMemory() throws {
        var parsed = 0
        for folder in ["openssh", "pem", "ppk"] {
            let dir = Fixtures.testkeys(folder)
            let pass = try Fixtures.passphrase(dir.appendingPathComponent(folder == "openssh" ? "PASSPHRASE" : "PASSPHRASE.txt"))
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() {
                let bytes = try Fixtures.bytes(dir.appendingPathComponent(name))
                guard PrivateKeyFile.detect(bytes) != nil else { continue }
                let file = SecretBytes(copying: bytes)
                XCTAssertEqual(PrivateKeyFile.detect(file), PrivateKeyFile.detect(bytes), name)
                XCTAssertEqual(PrivateKeyFile.isEncrypted(file), PrivateKeyFile.isEncrypted(bytes), name)
                let passphrase = PrivateKeyFile.isEncrypted(bytes) == true ? pass : nil
                switch (Result { try PrivateKeyFile.parse(bytes, passphrase: passphrase) }, Result { try PrivateKeyFile.parse(file, passphrase: passphrase) }) {
                case (.success(let a), .success(let b)):
                    XCTAssertEqual(a.key.publicKey, b.key.publicKey, name)
                    XCTAssertEqual(a.key.comment, b.key.comment, name)
                    XCTAssertEqual(a.format, b.format, name)
                    XCTAssertEqual(a.cipher, b.cipher, name)
                    parsed += 1
                case (.failure(let a as KeyFormatError), .failure(let b as KeyFormatError)):
                    XCTAssertEqual(a.kind, b.kind, name)
                    XCTAssertEqual(a.reason, b.reason, name)
                default:
                    XCTFail("\(name): the two entry points disagree")
                }
            }
        }
        XCTAssertGreaterThan(parsed, 40, "fixtures parsed")
    }

    /// Strict SecretBase64 (PEM, .ppk) accepts exactly what Base64.decode accepts, with the
    /// same bytes, however the text is cut into lines.
    func testSecretBase64AgreesWithBase64() {
        var g = SeededGenerator()
        let symbols = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        for _ in 0..<5000 {
            var text: [UInt8]
            if Bool.random(using: &g) {
                text = Array(Base64.encode((0..<Int.random(in: 0...40, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }).utf8)
                if Bool.random(using: &g), !text.isEmpty { text[Int.random(in: 0..<text.count, using: &g)] = [UInt8(ascii: "="), 0x20, 0x41, 0xff].randomElement(using: &g)! }
            } else {
                text = (0..<Int.random(in: 0...12, using: &g)).map { _ in Bool.random(using: &g) ? symbols.randomElement(using: &g)! : UInt8(ascii: "=") }
            }
            let expected = Base64.decode(text)
            text.withUnsafeBytes { raw in
                var pieces: [Slice<UnsafeRawBufferPointer>] = []
                var start = 0
                while start < raw.count {
                    let end = min(raw.count, start + Int.random(in: 1...9, using: &g))
                    pieces.append(raw[start..<end])
                    start = end
                }
                let got = (try? SecretBase64.decode(pieces, strict: true)).map { s in s.withUnsafeBytes { Array($0) } }
                XCTAssertEqual(got, expected, "seed \(g.seed): \(String(decoding: text, as: UTF8.self))")
            }
        }
    }
}
