// The certificate and krl lines of a bundle (`bundle export --ca`): a user certificate as
// `TYPE BASE64` (no comment), the KRL as base64 of its binary form (PROTOCOL.krl). Both
// are read here, for the parser and for HostStore, which attaches and enforces them.
public import KeyFormats

extension BundleText {
    /// The most bytes of a KRL a bundle carries (its base64 fits one line).
    public static let maximumRevocationListBytes = (maximumLineBytes - 16) / 4 * 3

    /// The user certificate of a certificate line, which must be written as `line` writes it.
    public static func certificate(_ line: String) throws -> Certificate {
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, let blob = Base64.decode(String(parts[1]), requirePadding: true) else {
            throw KeyFormatError.invalid("a certificate line is TYPE BASE64")
        }
        let certificate = try Certificate(blob: blob)
        guard certificate.type == parts[0] else {
            throw KeyFormatError.invalid("key type mismatch: '\(parts[0].prefix(64))' given but the certificate is \(certificate.type)")
        }
        guard certificate.role == .user else { throw KeyFormatError.invalid("a host certificate; a bundle carries user certificates only") }
        guard self.line(of: certificate) == line else { throw KeyFormatError.invalid("the certificate is not written as hostbook writes it") }
        return certificate
    }

    /// A certificate's line in a bundle.
    public static func line(of certificate: Certificate) -> String {
        certificate.type + " " + Base64.encode(certificate.blob)
    }

    /// The KRL of a krl line.
    public static func revocationList(_ text: String) throws -> KeyRevocationList {
        guard let bytes = Base64.decode(text, requirePadding: true), Base64.encode(bytes) == text else {
            throw KeyFormatError.invalid("the revocation list is not in base64")
        }
        guard bytes.count <= maximumRevocationListBytes else {
            throw KeyFormatError.invalid("the revocation list is \(bytes.count) bytes long; a bundle carries at most \(maximumRevocationListBytes)")
        }
        return try KeyRevocationList(bytes: bytes)
    }
}
