// One authorized_keys line (sshd(8) AUTHORIZED_KEYS FILE FORMAT; docs/formats.md, "Public key
// lines"): `[options SP] type SP base64 [SP comment]`. Options are comma-separated, values in
// double quotes with `\"` escapes; hostbook keeps them as text and parses past them, as sshd
// does: when the first token is not a key type, it is the options.

public struct AuthorizedKeysLine: Sendable, Equatable {
    /// The options prefix exactly as written (nil when there is none).
    public let options: String?
    public let key: PublicKey
    public let comment: String

    public init(options: String?, key: PublicKey, comment: String) {
        self.options = options
        self.key = key
        self.comment = comment
    }

    /// Longer lines are refused (a 16384-bit RSA key with long options still fits).
    public static let maximumLength = 16 * 1024

    /// Parses a line. Blank and `#` lines are `.invalid` ("no key"); callers reading a
    /// whole file skip them first.
    public static func parse(_ text: String) throws -> AuthorizedKeysLine {
        guard text.utf8.count <= maximumLength else {
            throw KeyFormatError.invalid("the line is longer than \(maximumLength) bytes")
        }
        var s = Substring(text)
        while let l = s.last, l == "\n" || l == "\r" { s = s.dropLast() }
        s = s.drop(while: { $0 == " " || $0 == "\t" })
        guard !s.isEmpty, s.first != "#" else { throw KeyFormatError.invalid("the line holds no key (it is blank or a comment)") }

        let firstEnd = s.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? s.endIndex
        if KeyTypeNames.isKeyType(String(s[..<firstEnd])) {
            let line = try PublicKeyLine.parse(String(s))
            return AuthorizedKeysLine(options: nil, key: line.key, comment: line.comment)
        }
        let optionsEnd = try endOfOptions(s)
        let options = String(s[..<optionsEnd])
        let rest = s[optionsEnd...].drop(while: { $0 == " " || $0 == "\t" })
        guard !rest.isEmpty else {
            throw KeyFormatError.invalid("no key after '\(options.prefix(40))' (unknown key type or options without a key)")
        }
        let restTypeEnd = rest.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? rest.endIndex
        guard KeyTypeNames.isKeyType(String(rest[..<restTypeEnd])) else {
            // `TYPE BASE64` with a type OpenSSH 9.2 does not know (e.g. a newer one).
            if rest[..<restTypeEnd].count >= 16, Base64.decode(Array(rest[..<restTypeEnd].utf8)) != nil {
                throw KeyFormatError.unsupported("unknown or unsupported key type '\(options.prefix(64))'")
            }
            throw KeyFormatError.invalid("unknown key type '\(rest[..<restTypeEnd].prefix(64))'")
        }
        let line = try PublicKeyLine.parse(String(rest))
        return AuthorizedKeysLine(options: options, key: line.key, comment: line.comment)
    }

    /// Where the options end: the first space or tab outside double quotes; `\"` inside
    /// quotes is an escaped quote (auth-options.c).
    static func endOfOptions(_ s: Substring) throws -> Substring.Index {
        var quoted = false
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            if !quoted && (c == " " || c == "\t") { return i }
            if c == "\\", s.index(after: i) < s.endIndex, s[s.index(after: i)] == "\"" {
                i = s.index(i, offsetBy: 2)
                continue
            }
            if c == "\"" { quoted.toggle() }
            i = s.index(after: i)
        }
        if quoted { throw KeyFormatError.invalid("the options have an unterminated double quote") }
        return i
    }

    public var text: String {
        let keyText = key.line(comment: comment)
        if let options { return options + " " + keyText }
        return keyText
    }
}
