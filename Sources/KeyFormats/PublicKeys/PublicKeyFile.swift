// Reads a public key file of any kind hostbook accepts: a `.pub` / authorized_keys line
// (options tolerated), an RFC 4716 block, a certificate line (`*-cert.pub`), or a PEM
// public key (`ssh-keygen -e -m PKCS8` / `-m PEM`).
// The first line that is not blank or a `#` comment decides.

public enum PublicKeyFile {
    public enum Content: Sendable, Equatable {
        case key(PublicKeyLine)
        case certificate(Certificate, comment: String)

        /// The plain key (for a certificate: the certified key).
        public var publicKey: PublicKey {
            switch self {
            case .key(let line): line.key
            case .certificate(let cert, _): cert.key
            }
        }

        public var comment: String {
            switch self {
            case .key(let line): line.comment
            case .certificate(_, let comment): comment
            }
        }
    }

    public static func parse(_ bytes: [UInt8]) throws -> Content {
        if RFC4716PublicKey.looksLikeBlock(bytes) { return .key(try RFC4716PublicKey.parse(bytes)) }
        guard let line = TextLines.split(bytes).map({ TextLines.trimmed($0) }).first(where: { !$0.isEmpty && !$0.hasPrefix("#") }) else {
            throw KeyFormatError.invalid("the file holds no public key")
        }
        if line.hasPrefix("-----BEGIN") {
            return .key(PublicKeyLine(key: try PEMPublicKey.parse(bytes), comment: ""))
        }
        let typeEnd = line.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? line.endIndex
        let type = String(line[..<typeEnd])
        if Certificate.baseType(of: type) != nil || type.hasSuffix(Certificate.suffix) {
            return try certificateLine(line)
        }
        let parsed = try AuthorizedKeysLine.parse(line)
        return .key(PublicKeyLine(key: parsed.key, comment: parsed.comment))
    }

    /// `type base64 [comment]` where the blob is a certificate; the outer type must equal
    /// the certificate's own.
    public static func certificateLine(_ line: String) throws -> Content {
        let fields = line.split(maxSplits: 2, whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count >= 2 else { throw KeyFormatError.invalid("no certificate data after the type '\(fields.first?.prefix(64) ?? "")'") }
        guard let blob = Base64.decode(Array(fields[1].utf8)) else { throw KeyFormatError.invalid("the certificate data is not valid base64") }
        let cert = try Certificate(blob: blob)
        guard cert.type == fields[0] else {
            throw KeyFormatError.invalid("key type mismatch: the line says '\(fields[0].prefix(64))' but the certificate is \(cert.type)")
        }
        let comment = fields.count > 2 ? TextLines.trimmed(fields[2]) : ""
        return .certificate(cert, comment: comment)
    }
}
