// No rule may crash on any input: random bytes and random text through every validator
// and the secret heuristics (SeededGenerator: the seed is printed, HOSTBOOK_TEST_SEED replays it).
@testable import HostStore
import XCTest
import TestSupport

final class RandomInputTests: XCTestCase {
    func testValidatorsSurviveRandomInput() {
        var g = SeededGenerator()
        // Bytes biased towards the interesting ones: ASCII punctuation, controls, UTF-8 lead
        // and continuation bytes, bidi and line-separator encodings.
        let pieces: [[UInt8]] = [[0x2E], [0x3A], [0x2D], [0x25], [0x5B], [0x5D], [0x0A], [0x00], [0x7F], [0xC2, 0x85],
                                 [0xE2, 0x80, 0xAE], [0xE2, 0x80, 0xA8], [0xF0, 0x9F, 0x98, 0x80], [0xED, 0xA0, 0x80], [0xFF], [0x80],
                                 Array("ghp_".utf8), Array("AKIA".utf8), Array("-p".utf8), Array("://".utf8), Array("@".utf8), Array("=".utf8)]
        var accepted = 0
        for _ in 0..<10_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...40, using: &g) {
                if Bool.random(using: &g) {
                    bytes.append(UInt8.random(in: 0x20...0x7E, using: &g))
                } else {
                    bytes += pieces.randomElement(using: &g)!
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if (try? SnippetRules.command(bytes)) != nil { accepted += 1 }
            _ = SecretHeuristics.findings(in: text)
            _ = try? HostValidation.name(text)
            _ = try? HostValidation.hostname(text)
            _ = try? HostValidation.user(text)
            _ = try? HostValidation.tag(text)
            _ = try? HostValidation.note(text)
            _ = try? HostValidation.port(text: text)
            _ = try? SnippetRules.description(text)
            // Whatever the rules accept is exactly what was given.
            if let kept = try? SnippetRules.command(bytes) { XCTAssertEqual(Array(kept.utf8), bytes) }
            // The byte-level UTF-8 check agrees with the standard library's.
            XCTAssertEqual(SnippetRules.firstInvalidUTF8Offset(bytes) == bytes.count, String(validating: bytes, as: UTF8.self) != nil)
        }
        XCTAssertGreaterThan(accepted, 50, "the generator produces acceptable commands too")
    }
}
