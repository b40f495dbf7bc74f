// The JSON objects of `hostbook ca` (docs/json.md): a CA, a certificate it signed, a
// revocation.
import HostStore
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
        var fields: [(String, JSONValue)] = [
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
        ]
        if let output { fields.append(("output", .string(output))) }
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

    static func json(_ r: AuthorityRevocation) -> JSONValue {
        switch r.what {
        case .serial(let s): .object([("kind", .string("serial")), ("serial", .int(Int(clamping: s))), ("revoked_at", .string(r.revokedAt))])
        case .key(let k): .object([("kind", .string("key")), ("fingerprint", .string(k.sha256Fingerprint)), ("revoked_at", .string(r.revokedAt))])
        case .keyID(let id): .object([("kind", .string("key-id")), ("key_id", .string(id)), ("revoked_at", .string(r.revokedAt))])
        }
    }
}
