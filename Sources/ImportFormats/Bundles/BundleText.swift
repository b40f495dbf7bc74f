// The bundle text format (docs/formats.md, "Team bundles"): line-oriented, sorted, one
// field per line, so that a bundle diffs well in git. A document from outside: bounded,
// never recursive, refused with the line named.

public enum BundleText {
    /// The first line of every bundle of this format version.
    public static let header = "hostbook-bundle 1"
    /// The largest text `parse` reads.
    public static let maximumBytes = 16 << 20
    /// The most lines `parse` reads.
    public static let maximumLines = 1_000_000
    /// The most hosts, snippets and host-key lines (each) a bundle holds.
    public static let maximumEntries = 100_000

    /// The canonical text of `document` (sorted, escaped).
    public static func render(_ document: BundleDocument) -> [UInt8] {
        fatalError("BundleText.render: not written yet")
    }

    /// Reads a bundle's text; refuses anything not in canonical form.
    public static func parse(_ bytes: [UInt8]) throws -> BundleDocument {
        throw BundleTextError(line: 0, "BundleText.parse: not written yet")
    }
}

extension BundleText {
    /// `s` as the format quotes a value, without the quotes (for messages): `"` and `\`
    /// escaped, control characters as `\u{N}`.
    public static func escaped(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x00...0x1F, 0x7F...0x9F: out += "\\u{" + String(u.value, radix: 16) + "}"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
