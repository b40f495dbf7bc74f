// One `.pub` / authorized_keys style line: `type SP base64 [SP comment]` (sshkey.c sshkey_read).
// The type outside the blob must equal the type inside it ("key type mismatch" otherwise).

public struct PublicKeyLine: Sendable, Equatable {
    public let key: PublicKey
    public let comment: String

    public init(key: PublicKey, comment: String) {
        self.key = key
        self.comment = comment
    }

    /// Parses `type base64 [comment]`. Leading/trailing whitespace and a final CR/LF are ignored.
    public static func parse(_ text: String) throws -> PublicKeyLine {
        var s = Substring(text)
        while let l = s.last, l == "\n" || l == "\r" { s = s.dropLast() }
        s = s.drop(while: { $0 == " " || $0 == "\t" })
        let typeEnd = s.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? s.endIndex
        let type = String(s[..<typeEnd])
        guard !type.isEmpty else { throw KeyFormatError.invalid("the line is empty; expected 'TYPE BASE64 [COMMENT]'") }
        var rest = s[typeEnd...].drop(while: { $0 == " " || $0 == "\t" })
        let b64End = rest.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? rest.endIndex
        let b64 = rest[..<b64End]
        guard !b64.isEmpty else { throw KeyFormatError.invalid("no key data after the key type '\(type.prefix(64))'") }
        rest = rest[b64End...].drop(while: { $0 == " " || $0 == "\t" })
        var comment = String(rest)
        while let l = comment.last, l == " " || l == "\t" { comment.removeLast() }
        guard let blob = Base64.decode(Array(b64.utf8)) else {
            throw KeyFormatError.invalid("the key data is not valid base64")
        }
        let key = try PublicKey(blob: blob)
        guard key.type == type else {
            throw KeyFormatError.invalid("key type mismatch: the line says '\(type.prefix(64))' but the key is \(key.type)")
        }
        return PublicKeyLine(key: key, comment: comment)
    }

    public var text: String { key.line(comment: comment) }
}
