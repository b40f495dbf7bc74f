// PrintableText.quoted, the one escaping rule for printed outside text, is idempotent: what
// it writes holds nothing it would escape again, and a backslash is not escaped. hostbook
// relies on this when a value escaped once (the executable's escapedForTerminal) is interpolated into
// TerminalText, which escapes again.
import XCTest
import KeyFormats

final class PrintableTextTests: XCTestCase {
    /// One of each class `isUnsafe` names, plus text that already looks like an escape.
    static let samples = [
        "plain", "", "tab\there", "line\nbreak\r\n", "esc\u{1B}[2Jclear", "nul\u{0}", "del\u{7F}", "c1\u{85}\u{9B}31m",
        "bidi\u{202E}txt.exe", "isolate\u{2066}x\u{2069}", "marks\u{200E}\u{200F}\u{061C}", "separators\u{2028}\u{2029}",
        "zero\u{200B}width\u{200C}\u{200D}\u{2060}\u{FEFF}", "soft\u{AD}hyphen", "tag\u{E0041}",
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

    /// Every invisible formatting character (general category Cf) is escaped, so two texts
    /// that look alike on the screen (`/usr/bin/ssh` and `/usr/bin/s\u{200b}sh`) print apart.
    func testEveryFormatCharacterIsEscaped() {
        let format: [UInt32] = [0x00AD, 0x061C, 0x180E, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C,
                                0x202D, 0x202E, 0x2060, 0x2061, 0x2064, 0x2066, 0x2067, 0x2068, 0x2069, 0xFEFF, 0xFFF9,
                                0xFFFB, 0x110BD, 0x1D173, 0xE0001, 0xE0041]
        for value in format {
            let scalar = Unicode.Scalar(value)!
            XCTAssertEqual(scalar.properties.generalCategory, .format, String(value, radix: 16))
            XCTAssertTrue(PrintableText.isUnsafe(scalar), String(value, radix: 16))
            XCTAssertEqual(PrintableText.quoted("a\(Character(scalar))b"), "a\\u{\(String(value, radix: 16))}b")
        }
        XCTAssertEqual(PrintableText.quoted("/usr/bin/s\u{200B}sh"), #"/usr/bin/s\u{200b}sh"#)
        XCTAssertEqual(PrintableText.clean("s\u{200B}s\u{AD}h"), "ssh")
        // Visible text outside ASCII is left alone.
        for text in ["ünïcödé", "名前", "🔑", "a\u{A0}b", "ß"] { XCTAssertEqual(PrintableText.quoted(text), text) }
    }

    /// A zero-width joiner is left alone only inside an emoji sequence, which terminals draw
    /// as one picture; next to anything else it is escaped like every Cf character.
    func testAJoinerIsKeptOnlyBetweenEmoji() {
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        XCTAssertEqual(PrintableText.quoted("trip " + family), "trip " + family)
        XCTAssertEqual(PrintableText.clean(family), family)
        // After a variation selector or a skin tone, before an emoji: kept.
        for kept in ["\u{2764}\u{FE0F}\u{200D}\u{1F525}", "\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}"] {
            XCTAssertEqual(PrintableText.quoted(kept), kept)
        }
        // Between letters, after an ASCII digit (Unicode's emoji property covers 0-9), at
        // either end, or doubled: escaped.
        XCTAssertEqual(PrintableText.quoted("s\u{200D}sh"), #"s\u{200d}sh"#)
        XCTAssertEqual(PrintableText.quoted("1\u{200D}\u{1F469}"), "1\\u{200d}\u{1F469}")
        XCTAssertEqual(PrintableText.quoted("\u{200D}\u{1F469}"), "\\u{200d}\u{1F469}")
        XCTAssertEqual(PrintableText.quoted("\u{1F469}\u{200D}"), "\u{1F469}\\u{200d}")
        XCTAssertEqual(PrintableText.quoted("\u{1F469}\u{200D}\u{200D}\u{1F469}"), "\u{1F469}\\u{200d}\\u{200d}\u{1F469}")
        XCTAssertEqual(PrintableText.clean("s\u{200D}sh"), "ssh")
    }
}
