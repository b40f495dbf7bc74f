// Characters that may not appear in one-line text a user reads back and runs
// (docs/snippets.md): line breaks and other control characters, and Unicode bidirectional
// overrides and isolates, which can make text read differently from what runs.

public enum TextRules {
    public enum Forbidden: Sendable, Equatable, CustomStringConvertible {
        case lineBreak(offset: Int)
        case control(UInt32, offset: Int)
        case bidi(UInt32, offset: Int)

        /// e.g. "a control character (U+0007) at character 4" — never the surrounding text.
        public var description: String {
            switch self {
            case .lineBreak(let o): return "a line break at character \(o + 1)"
            case .control(let v, let o): return "a control character (\(TextRules.codePoint(v))) at character \(o + 1)"
            case .bidi(let v, let o): return "a Unicode bidirectional control (\(TextRules.codePoint(v))) at character \(o + 1)"
            }
        }
    }

    /// The first forbidden scalar: C0 (U+0000–U+001F), DEL (U+007F), C1 (U+0080–U+009F),
    /// U+2028/U+2029 (line and paragraph separators), U+202A–U+202E, U+2066–U+2069.
    public static func firstForbiddenScalar(in s: String) -> Forbidden? {
        for (i, u) in s.unicodeScalars.enumerated() {
            let v = u.value
            switch v {
            case 0x0A, 0x0D, 0x0B, 0x0C, 0x85, 0x2028, 0x2029: return .lineBreak(offset: i)
            case 0x00...0x1F, 0x7F, 0x80...0x9F: return .control(v, offset: i)
            case 0x202A...0x202E, 0x2066...0x2069: return .bidi(v, offset: i)
            default: continue
            }
        }
        return nil
    }

    static func codePoint(_ v: UInt32) -> String {
        let hex = String(v, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
