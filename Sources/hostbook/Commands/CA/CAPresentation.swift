// The JSON objects of `hostbook ca` (docs/json.md): a CA, a certificate it signed, a
// revocation.
import HostStore
import Workflows
import KeyFormats

enum CAPresentation {
    static func json(_ ca: StoredAuthority, issued: Int, revoked: Int) throws -> JSONValue {
        .object([
            ("name", .string(ca.name)),
            ("type", .string(ca.algorithm)),
            ("fingerprint", .string(ca.fingerprint)),
            ("public_key", .string(try CAContext.publicLine(ca))),
            ("last_serial", .int(Int(clamping: ca.lastSerial))),
            ("issued", .int(issued)),
            ("revoked", .int(revoked)),
            ("krl_version", .int(Int(clamping: ca.krlVersion))),
            ("created_at", .string(ca.createdAt)),
        ])
    }

    static func role(_ role: Certificate.Role) -> String { role == .user ? "user" : "host" }

    static func json(_ issued: IssuedCertificate, ca: String, revocation: KeyRevocationList.Revocation?,
                     output: String? = nil) -> JSONValue {
        let c = issued.certificate
        let fields: [(String, JSONValue)] = [
            ("ca", .string(ca)),
            ("serial", .int(Int(clamping: c.serial))),
            ("role", .string(role(c.role))),
            ("type", .string(c.type)),
            ("key_id", .string(c.keyID)),
            ("principals", .strings(c.principals)),
            ("valid_after", .string(CertificateValidity.text(c.validAfter))),
            ("valid_before", .string(CertificateValidity.text(c.validBefore))),
            ("critical_options", .array(c.criticalOptions.map { option($0) })),
            ("extensions", .array(c.extensions.map { option($0) })),
            ("key_fingerprint", .string(c.key.sha256Fingerprint)),
            ("signed_at", .string(issued.signedAt)),
            ("revoked", revocation.map { .string(revocationText($0)) } ?? .null),
            ("certificate", .string(c.line())),
            ("output", .optional(output)),
        ]
        return .object(fields)
    }

    private static func option(_ o: (name: String, data: [UInt8])) -> JSONValue {
        .object([("name", .string(o.name)), ("value", o.data.isEmpty ? .null : .optional(Certificate.stringValue(o.data)))])
    }

    /// Why a certificate is revoked, in a word or two: `serial`, `key`, `key-id`, `ca`.
    static func revocationText(_ r: KeyRevocationList.Revocation) -> String {
        switch r {
        case .serial: "serial"
        case .key: "key"
        case .keyID: "key-id"
        case .certificateAuthority: "ca"
        }
    }

    /// One revocation: its kind and the one field that kind fills; `revoked_at` null when
    /// not known (the revocation just asked for).
    static func json(_ r: AuthorityRevocation) -> JSONValue {
        var serial: JSONValue = .null, fingerprint: JSONValue = .null, keyID: JSONValue = .null
        let kind: String
        switch r.what {
        case .serial(let s): kind = "serial"; serial = .int(Int(clamping: s))
        case .key(let k): kind = "key"; fingerprint = .string(k.sha256Fingerprint)
        case .keyID(let id): kind = "key-id"; keyID = .string(id)
        }
        return .object([("kind", .string(kind)), ("serial", serial), ("fingerprint", fingerprint), ("key_id", keyID),
                        ("revoked_at", r.revokedAt.isEmpty ? .null : .string(r.revokedAt))])
    }
}
