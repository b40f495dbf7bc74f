// What a snippet's command may be (docs/snippets.md). The command is checked as the
// bytes it arrived as, so invalid UTF-8 is caught rather than repaired, and it is never
// trimmed or rewritten: what is accepted is stored byte for byte.

public enum SnippetRules {
    /// 16 KiB of UTF-8; exactly this many bytes is accepted.
    public static let maxCommandBytes = 16_384
    public static let maxDescriptionBytes = 1024

    /// Validates `bytes` and returns them as a string, unchanged. Each refusal is a
    /// `.rejected` error that gives the reason without repeating the command.
    public static func command(_ bytes: [UInt8]) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw HostStoreError.rejected("the command is not valid UTF-8 (first bad byte at offset \(firstInvalidUTF8Offset(bytes)))")
        }
        if bytes.count > maxCommandBytes {
            throw HostStoreError.rejected("the command is \(bytes.count) bytes long; the limit is \(maxCommandBytes) bytes of UTF-8")
        }
        if text.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) {
            throw HostStoreError.rejected(text.isEmpty ? "the command is empty" : "the command is only whitespace")
        }
        if let bad = TextRules.firstForbiddenScalar(in: text) {
            let hint: String
            switch bad {
            case .lineBreak: hint = "A snippet is one command line; join the commands with ';' or '&&'."
            case .control: hint = "Remove the control character; a snippet is printable text."
            case .bidi: hint = "These characters can make a command read differently from what runs; remove them."
            }
            throw HostStoreError.rejected("the command contains \(bad.description)", hint: hint)
        }
        return text
    }

    /// A description: one line of at most 1024 bytes, the same characters refused.
    public static func description(_ text: String) throws {
        if text.utf8.count > maxDescriptionBytes {
            throw HostStoreError.rejected("the description is \(text.utf8.count) bytes long; the limit is \(maxDescriptionBytes)")
        }
        if let bad = TextRules.firstForbiddenScalar(in: text) {
            throw HostStoreError.rejected("the description contains \(bad.description)")
        }
    }

    /// The offset of the first byte that does not start or continue a valid UTF-8 sequence
    /// (RFC 3629 §4: no overlongs, no surrogates, nothing above U+10FFFF).
    static func firstInvalidUTF8Offset(_ b: [UInt8]) -> Int {
        var i = 0
        while i < b.count {
            let c = b[i]
            let need: Int
            var lo: UInt8 = 0x80, hi: UInt8 = 0xBF
            switch c {
            case 0x00...0x7F: i += 1; continue
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; lo = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: need = 2
            case 0xED: need = 2; hi = 0x9F
            case 0xF0: need = 3; lo = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; hi = 0x8F
            default: return i
            }
            for k in 1...need {
                guard i + k < b.count else { return i }
                let cc = b[i + k]
                let (l, h) = k == 1 ? (lo, hi) : (UInt8(0x80), UInt8(0xBF))
                if cc < l || cc > h { return i }
            }
            i += need + 1
        }
        return b.count
    }
}
