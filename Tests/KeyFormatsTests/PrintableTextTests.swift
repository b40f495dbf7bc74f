// PrintableText.quoted, the one escaping rule for printed outside text, is idempotent: what
// it writes holds nothing it would escape again, and a backslash is not escaped. hostbook
// relies on this when a value escaped once (escapedForTerminal) is interpolated into
// TerminalText, which escapes again.
import XCTest
import KeyFormats

final class PrintableTextTests: XCTestCase {
    /// One of each class `isUnsafe` names, plus text that already looks like an escape.
    static let samples = [
        "plain", "", "tab\there", "line\nbreak\r\n", "esc\u{1B}[2Jclear", "nul\u{0}", "del\u{7F}", "c1\u{85}\u{9B}31m",
        "bidi\u{202E}txt.exe", "isolate\u{2066}x\u{2069}", "marks\u{200E}\u{200F}\u{061C}", "separators\u{2028}\u{2029}",
        #"already \u{1b}[2J escaped"#, #"C:\Users\new\table"#, "\\", "\\\u{1B}", "ünïcödé 名前 🔑",
    ]

    func testEscapingTwiceGivesWhatEscapingOnceGives() {
        for s in Self.samples {
            let once = PrintableText.quoted(s)
            XCTAssertEqual(PrintableText.quoted(once), once, s.debugDescription)
            XCTAssertFalse(once.unicodeScalars.contains(where: PrintableText.isUnsafe), s.debugDescription)
        }
    }

    func testABackslashIsNotEscaped() {
        XCTAssertEqual(PrintableText.quoted(#"a\b\\c"#), #"a\b\\c"#)
        XCTAssertEqual(PrintableText.quoted(#"\u{1b}"#), #"\u{1b}"#)
        XCTAssertEqual(PrintableText.quoted("\\\u{1B}"), #"\\u{1b}"#)
    }

    func testUnsafeScalarsAreShownAsTheirCodePoint() {
        XCTAssertEqual(PrintableText.quoted("x\u{1B}[2J\nfingerprint: y"), #"x\u{1b}[2J\u{a}fingerprint: y"#)
        XCTAssertEqual(PrintableText.quoted("a\u{202E}b"), #"a\u{202e}b"#)
    }
}
