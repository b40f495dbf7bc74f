// The certificate attached to a key (`keys import` of a key with its `-cert.pub` beside it,
// `keys cert add KEY FILE`, `keys cert remove KEY`, a bundle's certificate of the key on
// apply: BundleDiff), in `key_certificates`
// (KeyCertificatesSchema). A certificate is attached only to the key it certifies and only
// when its CA signature verifies; attaching replaces the key's earlier one (a renewal).
// The agents offer it beside its key (AgentAccessPolicy), and `hostbook ssh` and the
// installed configuration hand it to ssh as its CertificateFile.
public import KeyFormats

/// Why a certificate was not attached (exit 5 in the program, which words it).
public enum KeyCertificateRefusal: Error, Sendable, Equatable {
    /// It certifies another key (its fingerprint) than the key named (the key's).
    case certifiesAnotherKey(certified: String, key: String)
    /// Its CA signature does not verify over its contents.
    case badSignature
}

public struct KeyCertificates {
    let connection: SQLiteConnection

    public init(database: HostDatabase) { self.connection = database.connection }

    /// Whether `certificate` may be attached to `key`: it certifies that key and its
    /// signature verifies; throws the refusal otherwise.
    public static func check(_ certificate: Certificate, for key: StoredKey) throws {
        guard certificate.key.blob == key.publicKeyBlob else {
            throw KeyCertificateRefusal.certifiesAnotherKey(certified: certificate.sha256Fingerprint, key: key.fingerprint)
        }
        guard certificate.verifySignature() else { throw KeyCertificateRefusal.badSignature }
    }

    /// Attaches `certificate` to `key`, replacing the one it had; returns the replaced one.
    @discardableResult
    public func attach(_ certificate: Certificate, comment: String = "", to key: StoredKey) throws -> Certificate? {
        try connection.transaction { try attachInTransaction(certificate, comment: comment, to: key) }
    }

    /// `attach` inside the caller's transaction (a bundle's apply).
    @discardableResult
    func attachInTransaction(_ certificate: Certificate, comment: String, to key: StoredKey) throws -> Certificate? {
        try Self.check(certificate, for: key)
        let old = try self.certificate(of: key)
        try connection.run("""
            INSERT INTO key_certificates (key_id, certificate, comment, added_at)
            VALUES (?1, ?2, ?3, strftime('%Y-%m-%dT%H:%M:%SZ','now'))
            ON CONFLICT(key_id) DO UPDATE SET certificate = ?2, comment = ?3, added_at = excluded.added_at
            """, [.int(key.id), .blob(certificate.blob), .text(comment)])
        return old
    }

    /// Detaches the key's certificate; returns it, or nil when it had none.
    @discardableResult
    public func remove(from key: StoredKey) throws -> Certificate? {
        try connection.transaction {
            let old = try certificate(of: key)
            try connection.run("DELETE FROM key_certificates WHERE key_id = ?", [.int(key.id)])
            return old
        }
    }

    /// The key's certificate, or nil.
    public func certificate(of key: StoredKey) throws -> Certificate? {
        try connection.query("SELECT certificate FROM key_certificates WHERE key_id = ?", [.int(key.id)]).first
            .flatMap { $0.blob(0) }.flatMap { try? Certificate(blob: $0) }
    }

    /// Every attached certificate, by key id.
    public func all() throws -> [Int64: Certificate] {
        var result: [Int64: Certificate] = [:]
        for row in try connection.query("SELECT key_id, certificate FROM key_certificates") {
            guard let id = row.int(0), let blob = row.blob(1), let certificate = try? Certificate(blob: blob) else { continue }
            result[id] = certificate
        }
        return result
    }
}
