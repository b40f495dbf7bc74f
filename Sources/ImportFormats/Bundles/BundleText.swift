// The bundle text format (docs/formats.md, "Team bundles"): line-oriented, sorted, one
// field per line, so that a bundle diffs well in git. A document from outside: bounded,
// never recursive, refused with the line named.
//
//   hostbook-bundle 1
//   name "team"
//   serial 7
//
//   host "db1"
//     hostname "db1.example.com"
//     port 22
//     user "deploy"            (optional; then tag*, alias*, jump, note, key, in this order)
//
//   snippet "logs"
//     command "journalctl -f"
//     description "..."        (optional)
//
//   host-key "db1.example.com ssh-ed25519 AAAA..."
//
//   certificate "ssh-ed25519-cert-v01@openssh.com AAAA..."   (user certificates, `--ca`)
//
//   krl "U1NIS1JM..."          (the CA's KRL in base64, at most one; `--ca`)
//
// Every string is in double quotes with `\"` and `\\` as its only escapes; control
// characters (U+0000–U+001F, U+007F–U+009F) have no spelling at all. Hosts, snippets,
// tags, aliases, host-key and certificate lines are sorted by their UTF-8 bytes; a blank
// line comes before each host and snippet, before the first host-key line, before the first
// certificate line and before the krl line; the text ends with a newline. `parse` reads
// exactly the text `render` writes: anything else is refused.

public enum BundleText {
    /// The first line of every bundle of this format version.
    public static let header = "hostbook-bundle 1"
    /// The largest text `parse` reads.
    public static let maximumBytes = 16 << 20
    /// The most lines `parse` reads.
    public static let maximumLines = 1_000_000
    /// The longest line `parse` reads, in bytes.
    public static let maximumLineBytes = 64 << 10
    /// The most hosts, snippets and host-key lines (each) a bundle holds.
    public static let maximumEntries = 100_000

    /// The fields of a host, in the order they are written.
    static let hostFields = ["hostname", "port", "user", "tag", "alias", "jump", "note", "key"]
    /// The fields of a snippet, in the order they are written.
    static let snippetFields = ["command", "description"]

    /// `s` as the format quotes a value, without the quotes (for messages): `"` and `\`
    /// escaped, control characters as `\u{N}` (a spelling `parse` refuses).
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

    /// Byte order of UTF-8, the order of everything sorted in a bundle.
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// ASCII case folded: names, aliases and snippet names are unique regardless of case.
    static func folded(_ s: String) -> String {
        String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
