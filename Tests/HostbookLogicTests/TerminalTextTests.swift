// TerminalText, the type everything hostbook prints goes through: interpolated values are
// escaped (PrintableText.quoted) unless spelled `raw`, literals and TerminalText kept.
import CommandLineKit
import XCTest
import KeyFormats
@testable import hostbook

final class TerminalTextTests: XCTestCase {
    static let hostile = "x\u{1B}[2J\nfingerprint: SHA256:forged"
    static let escaped = #"x\u{1b}[2J\u{a}fingerprint: SHA256:forged"#

    func testInterpolatedTextIsEscaped() {
        let comment = Self.hostile
        let t: TerminalText = "comment:      \(comment)"
        XCTAssertEqual(t.text, "comment:      " + Self.escaped)
        let sub: Substring = Self.hostile.dropFirst(0)
        XCTAssertEqual(("\(sub)" as TerminalText).text, Self.escaped)
    }

    func testNumbersAndErrorsAreEscapedToo() {
        struct Odd: Error, CustomStringConvertible { var description: String { "bad\u{1B}]0;title\u{7}" } }
        let e: any Error = Odd()
        XCTAssertEqual(("\(e) \(42)" as TerminalText).text, #"bad\u{1b}]0;title\u{7} 42"#)
        XCTAssertEqual(("\(Odd())" as TerminalText).text, #"bad\u{1b}]0;title\u{7}"#)
    }

    func testLiteralsAreHostbooksOwnAndKept() {
        let t: TerminalText = "\u{1B}[1mNAME\u{1B}[0m\nline two"
        XCTAssertEqual(t.text, "\u{1B}[1mNAME\u{1B}[0m\nline two")
    }

    func testRawIsPrintedAsGiven() {
        let block = "+---[ED25519 256]--+\n|       .o.       |"
        XCTAssertEqual(("\(raw: block)\n" as TerminalText).text, block + "\n")
        XCTAssertEqual(TerminalText.raw(Self.hostile).text, Self.hostile)
    }

    func testTerminalTextInsideTerminalTextIsNotEscapedAgain() {
        let bold: TerminalText = "\u{1B}[1m\(Self.hostile)\u{1B}[0m"
        let line: TerminalText = "> \(bold)"
        XCTAssertEqual(line.text, "> \u{1B}[1m" + Self.escaped + "\u{1B}[0m")
        XCTAssertEqual([line, "b"].joined(separator: "\n").text, line.text + "\nb")
        XCTAssertEqual((line + "!").text, line.text + "!")
    }

    /// A value escaped before (escapedForTerminal) prints the same as the value itself.
    func testEscapingIsIdempotent() {
        for s in [Self.hostile, "a\u{202E}b", #"path\with\u{1b}backslashes"#, "plain", "\\\u{1B}"] {
            let once: TerminalText = "\(s)"
            let twice: TerminalText = "\(s.escapedForTerminal)"
            XCTAssertEqual(twice, once, s.debugDescription)
            XCTAssertEqual(once.text, PrintableText.quoted(s))
        }
    }
}
