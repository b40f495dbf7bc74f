// The one escaping rule for text that came from outside (files, key blobs, JSON, the
// network, the command line) wherever hostbook prints it: never a terminal escape, a line
// break, a bidirectional override or any other invisible formatting character (which can
// make text read differently, or two texts look the same). `quoted` shows
// such characters as `\u{...}`; the program reaches it through TerminalText's interpolation
// (hostbook/CLI/TerminalText.swift, which also spells it for words built before they are
// printed), so every table cell, message, prompt and banner that shows outside text is
// escaped by it. The libraries keep outside
// text raw in what they return and throw; only the executable, which prints, escapes. `clean` removes them instead, for the few fields an
// importer stores (Tailscale host names, OS names, logins).

public enum PrintableText {
    /// True for C0 and C1 controls, DEL, the line and paragraph separators, and every
    /// invisible formatting character (Unicode general category Cf: the bidirectional marks,
    /// embeddings, overrides and isolates U+061C, U+200E–U+200F, U+202A–U+202E,
    /// U+2066–U+2069, the zero-width U+200B–U+200D and U+2060, U+FEFF, the soft hyphen
    /// U+00AD, tags ...), which show nothing and can make two texts look alike.
    public static func isUnsafe(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x20 || (0x7f...0x9f).contains(v) || v == 0x2028 || v == 0x2029 { return true }
        return v >= 0xa0 && s.properties.generalCategory == .format
    }

    /// Whether the scalar at `i` of `scalars` is unsafe where it stands: `isUnsafe`, except
    /// a zero-width joiner inside an emoji sequence (an emoji, or an emoji's variation
    /// selector or skin-tone modifier, before it; an emoji after it: man, ZWJ, woman, ZWJ, girl), which terminals
    /// draw as one visible picture. Everywhere else U+200D is escaped like any Cf.
    static func isUnsafe(at i: Int, in scalars: [Unicode.Scalar]) -> Bool {
        let s = scalars[i]
        guard isUnsafe(s) else { return false }
        guard s.value == 0x200D, i > 0, i + 1 < scalars.count else { return true }
        let before = scalars[i - 1], after = scalars[i + 1]
        let joinsAfter = isEmoji(before) || before.value == 0xFE0F || (0x1F3FB...0x1F3FF).contains(before.value)
        return !(joinsAfter && isEmoji(after))
    }

    /// An emoji picture (not the ASCII digits, `#` and `*` Unicode also marks as emoji).
    private static func isEmoji(_ s: Unicode.Scalar) -> Bool {
        s.value >= 0xA9 && s.properties.isEmoji
    }

    /// Whether `text` holds an unsafe scalar. Printable ASCII is decided byte by byte (a
    /// listing escapes tens of thousands of cells, nearly all plain ASCII).
    static func hasUnsafe(_ text: String) -> Bool {
        var ascii = true
        for b in text.utf8 {
            if b < 0x20 || b == 0x7F { return true }
            if b >= 0x80 { ascii = false; break }
        }
        guard !ascii else { return false }
        let scalars = Array(text.unicodeScalars)
        return scalars.indices.contains { isUnsafe(at: $0, in: scalars) }
    }

    /// `text` with every unsafe scalar removed.
    public static func clean(_ text: String) -> String {
        guard hasUnsafe(text) else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        for i in scalars.indices where !isUnsafe(at: i, in: scalars) { out.append(scalars[i]) }
        return String(out)
    }

    /// `text` with every unsafe scalar shown as `\u{...}`: what every printed outside string
    /// goes through.
    public static func quoted(_ text: String) -> String {
        guard hasUnsafe(text) else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = ""
        for i in scalars.indices {
            if isUnsafe(at: i, in: scalars) {
                out += "\\u{" + String(scalars[i].value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalars[i])
            }
        }
        return out
    }

    /// Bytes that may not be UTF-8 (a NUL, a broken sequence): invalid sequences become
    /// U+FFFD, then `quoted`.
    public static func quoted(bytes: some Sequence<UInt8>) -> String {
        quoted(String(decoding: Array(bytes), as: UTF8.self))
    }
}
