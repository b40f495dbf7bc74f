// RFC 4716 "SSH2 public key" blocks (RFC 4716 §3), what `ssh-keygen -e` writes:
//
//     ---- BEGIN SSH2 PUBLIC KEY ----
//     Comment: "2048-bit RSA, converted by root@vm from OpenSSH"
//     x-private-tag: value continued \
//       on the next line
//     AAAAB3NzaC1yc2EAAAADAQABAAABAQCG/+m/M/fuL/+1W0nv2/haHoUaHAb/8o5tmP0ZD/
//     ---- END SSH2 PUBLIC KEY ----
//
// Header lines are `Tag: value` (tags case-insensitive, ≤ 64 bytes; the value may be
// double-quoted); a line ending in `\` continues on the next. The body is base64 of the
// wire blob. The `Comment` header becomes the key's comment.

public enum RFC4716PublicKey {
    public static let begin = "---- BEGIN SSH2 PUBLIC KEY ----"
    public static let end = "---- END SSH2 PUBLIC KEY ----"

    /// True when the text starts (after blank lines) with the BEGIN marker.
    public static func looksLikeBlock(_ bytes: [UInt8]) -> Bool {
        TextLines.split(Array(bytes.prefix(256))).first { !TextLines.trimmed($0).isEmpty }
            .map { TextLines.trimmed($0) == begin } ?? false
    }

    public static func parse(_ bytes: [UInt8]) throws -> PublicKeyLine {
        let lines = TextLines.split(bytes)
        var i = 0
        while i < lines.count, TextLines.trimmed(lines[i]).isEmpty { i += 1 }
        guard i < lines.count, TextLines.trimmed(lines[i]) == begin else {
            throw KeyFormatError.invalid("not an RFC 4716 public key: the first line is not '\(begin)'")
        }
        i += 1

        var comment = ""
        var body: [UInt8] = []
        var ended = false
        var inHeaders = true
        while i < lines.count {
            var line = TextLines.trimmed(lines[i])
            i += 1
            if line == end { ended = true; break }
            if line.hasPrefix("----") { throw KeyFormatError.invalid("unexpected marker line '\(line.prefix(40))' in the RFC 4716 block") }
            if inHeaders, let colon = line.firstRange(of: ":") {
                // A header, possibly continued by lines ending in a backslash.
                while line.hasSuffix("\\") {
                    line.removeLast()
                    guard i < lines.count else { throw KeyFormatError.invalid("the RFC 4716 block ends inside a header (truncated)") }
                    // Kept as is: the writer may have cut the value right before a space.
                    line += String(lines[i])
                    i += 1
                }
                let tag = String(line[..<colon.lowerBound])
                guard !tag.isEmpty, tag.utf8.count <= 64 else { throw KeyFormatError.invalid("an RFC 4716 header tag is empty or longer than 64 bytes") }
                var value = TextLines.trimmed(line[colon.upperBound...][...])
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
                if tag.lowercased() == "comment" { comment = value }
                continue
            }
            inHeaders = false
            body.append(contentsOf: line.utf8)
        }
        guard ended else { throw KeyFormatError.invalid("the RFC 4716 block has no END line (the file is truncated)") }
        guard !body.isEmpty else { throw KeyFormatError.invalid("the RFC 4716 block holds no key") }
        guard let blob = Base64.decode(body) else { throw KeyFormatError.invalid("the RFC 4716 key data is not valid base64") }
        return PublicKeyLine(key: try PublicKey(blob: blob), comment: comment)
    }

    /// The block as `ssh-keygen -e` writes it: one quoted Comment header, 70-column body.
    public static func encode(_ key: PublicKey, comment: String) -> String {
        var out = begin + "\n"
        if !comment.isEmpty {
            let escaped = comment.replacingQuotes()
            // Lines are at most 72 bytes: wrap long headers with backslash continuations,
            // cutting between characters (never inside a multi-byte one).
            var line = ""
            for c in "Comment: \"\(escaped)\"" {
                if line.utf8.count + c.utf8.count > 70 {
                    out += line + "\\\n"
                    line = ""
                }
                line.append(c)
            }
            let header = line
            out += header + "\n"
        }
        let b64 = Array(key.base64)
        var i = 0
        while i < b64.count {
            out += String(b64[i..<min(i + 70, b64.count)]) + "\n"
            i += 70
        }
        return out + end + "\n"
    }
}

private extension String {
    /// Double quotes cannot appear inside a quoted header value.
    func replacingQuotes() -> String { String(map { $0 == "\"" ? "'" : $0 }) }
}
