// JSONBytes' escaping, the one rule for a JSON string hostbook prints (JSONValue,
// StreamedJSONObject and the streamed host list all write through it): what RFC 8259 requires
// (`"`, `\`, C0 controls) plus DEL, C1 controls and U+2028/U+2029, as `\uXXXX` or the short
// escapes; every other character, outside the BMP too, as its UTF-8. A JSON parser reads
// each string back unchanged.
import Foundation
import Workflows
import XCTest
@testable import hostbook

final class JSONEscapingTests: XCTestCase {
    private func rendered(_ s: String) -> String { JSONValue.string(s).rendered() }

    func testControlCharactersAreEscaped() {
        XCTAssertEqual(rendered("a\"b\\c"), #""a\"b\\c""#)
        XCTAssertEqual(rendered("\n\r\t"), #""\n\r\t""#)
        XCTAssertEqual(rendered("\u{0}\u{1}\u{8}\u{b}\u{c}\u{1b}\u{1f}"), #""\u0000\u0001\u0008\u000b\u000c\u001b\u001f""#)
        XCTAssertEqual(rendered("del\u{7f}"), #""del\u007f""#)
        XCTAssertEqual(rendered("c1\u{80}\u{85}\u{9b}\u{9f}"), #""c1\u0080\u0085\u009b\u009f""#)
        XCTAssertEqual(rendered("ls\u{2028}ps\u{2029}"), #""ls\u2028ps\u2029""#)
    }

    func testTextOutsideTheBMPAndOtherCharactersStayAsTheyAre() {
        for s in ["🔑", "名前 🔑 𝄞", "\u{10FFFF}", "é\u{a0}\u{a9}\u{2027}\u{202a}", "/"] {
            XCTAssertEqual(rendered(s), "\"" + s + "\"", s.debugDescription)
        }
    }

    func testEveryWriterAgrees() {
        let samples = ["plain", "", "\u{0}\u{1b}[2J\u{7f}\u{85}", "quote\"back\\slash", "🔑𝄞\u{2028}", "\u{c2}\u{e2}\u{80}"]
        for s in samples {
            var escaped = ""
            JSONValue.escape(s, into: &escaped)
            XCTAssertEqual(escaped, rendered(s), s.debugDescription)
            var w = JSONBytes()
            Array(s.utf8).withUnsafeBufferPointer { w.string(utf8: $0) }
            XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), rendered(s), s.debugDescription)
        }
    }

    func testAParserReadsEveryStringBackUnchanged() throws {
        var all = (0..<0x250).compactMap(Unicode.Scalar.init).map(String.init)
        all += ["\u{2028}", "\u{2029}", "\u{fffd}", "😀", "\u{1F3F4}\u{E0067}\u{E0062}\u{E007F}", "\u{10FFFF}", "a\u{0301}"]
        let document = JSONValue.array(all.map { .string($0) }).rendered()
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String])
        XCTAssertEqual(parsed.count, all.count)
        for (a, b) in zip(parsed, all) { XCTAssertEqual(Array(a.unicodeScalars), Array(b.unicodeScalars)) }
    }
}
