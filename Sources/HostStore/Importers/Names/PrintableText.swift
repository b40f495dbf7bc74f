// Text from an import that hostbook prints or stores as a label: never a terminal escape,
// a line break or a bidirectional override (which can make text read differently).

public enum PrintableText {
    /// True for C0 and C1 controls, DEL, and Unicode bidirectional embeddings, overrides and
    /// isolates (U+202A–U+202E, U+2066–U+2069), plus the line and paragraph separators.
    public static func isUnsafe(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return v < 0x20 || (0x7f...0x9f).contains(v) || (0x202a...0x202e).contains(v)
            || (0x2066...0x2069).contains(v) || v == 0x2028 || v == 0x2029
    }

    /// `text` with every unsafe scalar removed.
    public static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars where !isUnsafe(s) { out.append(s) }
        return String(out)
    }

    /// `text` with every unsafe scalar shown as `\u{...}`, for error messages that quote input.
    public static func quoted(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = ""
        for s in text.unicodeScalars {
            if isUnsafe(s) { out += "\\u{" + String(s.value, radix: 16) + "}" } else { out.unicodeScalars.append(s) }
        }
        return out
    }
}
