// Every read and write of `certificate_authorities`, `ca_certificates` and
// `ca_revocations` (CertificateAuthoritySchema). A serial is given and its certificate
// recorded in one transaction (`issue`): the caller signs inside it, so a serial is never
// given twice and a certificate never goes unrecorded. Refusals are
// `CertificateAuthorityRefusal`s, worded by the program.
public import KeyFormats

/// A CA's row: its public half and counters.
public struct StoredAuthority: Sendable, Equatable {
    public let id: Int64
    public let uuid: String
    public let name: String
    public let algorithm: String
    public let fingerprint: String
    public let publicKeyBlob: [UInt8]
    public let lastSerial: UInt64
    public let krlVersion: UInt64
    public let createdAt: String

    public var publicKey: PublicKey {
        get throws { try PublicKey(blob: publicKeyBlob) }
    }
}

/// One certificate a CA signed, as recorded.
public struct IssuedCertificate: Sendable, Equatable {
    public let serial: UInt64
    public let signedAt: String
    public let certificate: Certificate
}

/// One revocation a CA recorded.
public struct AuthorityRevocation: Sendable, Equatable {
    public enum What: Sendable, Equatable {
        case serial(UInt64)
        case key(PublicKey)
        case keyID(String)
    }
    public let what: What
    public let revokedAt: String

    public init(what: What, revokedAt: String) {
        self.what = what
        self.revokedAt = revokedAt
    }
}

/// Why the store refused.
public enum CertificateAuthorityRefusal: Error, Sendable, Equatable {
    /// Another CA has this name.
    case nameTaken(String)
    /// Another CA has this key (the stored CA's name).
    case keyTaken(String)
    /// No CA has this name.
    case notFound(String)
    /// The CA never gave this serial (its last serial beside it).
    case serialNotIssued(authority: String, serial: UInt64, lastSerial: UInt64)
    /// The serials of this CA are spent.
    case serialsExhausted(String)
}

public final class CertificateAuthorityStore {
    let connection: SQLiteConnection

    public init(database: HostDatabase) { connection = database.connection }

    private static let columns = "id, uuid, name, algorithm, fingerprint, public_key, last_serial, krl_version, created_at"

    /// Refuses a taken name or a key another CA has (before the vault item is written).
    public func checkFree(name: String, fingerprint: String) throws {
        if let other = try find(fingerprint: fingerprint) { throw CertificateAuthorityRefusal.keyTaken(other.name) }
        if try find(name: name) != nil { throw CertificateAuthorityRefusal.nameTaken(name) }
    }

    /// Adds a CA's row; refuses what `checkFree` refuses.
    @discardableResult
    public func insert(uuid: String, name: String, publicKey: PublicKey) throws -> StoredAuthority {
        try connection.transaction {
            try checkFree(name: name, fingerprint: publicKey.sha256Fingerprint)
            _ = try connection.run("""
                INSERT INTO certificate_authorities (uuid, name, algorithm, fingerprint, public_key, created_at)
                VALUES (?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ','now'))
                """, [.text(uuid), .text(name), .text(publicKey.type), .text(publicKey.sha256Fingerprint), .blob(publicKey.blob)])
            guard let stored = try find(name: name) else {
                throw HostStoreError.database(code: 1, message: "the new certificate authority row could not be read back")
            }
            return stored
        }
    }

    /// Deletes a CA's row (and what it issued and revoked); nil when there is none.
    @discardableResult
    public func remove(name: String) throws -> StoredAuthority? {
        try connection.transaction {
            guard let ca = try find(name: name) else { return nil }
            _ = try connection.run("DELETE FROM certificate_authorities WHERE id = ?", [.int(ca.id)])
            return ca
        }
    }

    public func find(name: String) throws -> StoredAuthority? {
        try connection.query("SELECT \(Self.columns) FROM certificate_authorities WHERE name = ?", [.text(name)]).first.map(Self.decode)
    }

    public func find(fingerprint: String) throws -> StoredAuthority? {
        try connection.query("SELECT \(Self.columns) FROM certificate_authorities WHERE fingerprint = ?", [.text(fingerprint)]).first.map(Self.decode)
    }

    /// The CA called `name`, or `.notFound`.
    public func existing(_ name: String) throws -> StoredAuthority {
        guard let ca = try find(name: name) else { throw CertificateAuthorityRefusal.notFound(name) }
        return ca
    }

    /// Every CA, by name.
    public func list() throws -> [StoredAuthority] {
        try connection.query("SELECT \(Self.columns) FROM certificate_authorities ORDER BY name COLLATE NOCASE, id").map(Self.decode)
    }

    /// How many certificates each CA issued and how many revocations it holds, by CA id.
    public func counts() throws -> [Int64: (issued: Int, revoked: Int)] {
        var out: [Int64: (issued: Int, revoked: Int)] = [:]
        for row in try connection.query("""
            SELECT id, (SELECT count(*) FROM ca_certificates WHERE ca_id = ca.id),
                       (SELECT count(*) FROM ca_revocations WHERE ca_id = ca.id)
            FROM certificate_authorities ca
            """) {
            out[row.int(0) ?? 0] = (Int(row.int(1) ?? 0), Int(row.int(2) ?? 0))
        }
        return out
    }

    /// Gives the next serial of the CA called `name` to `sign` and records the certificate
    /// it returns, in one transaction: a failed signature gives nothing and records nothing.
    public func issue(authority name: String, _ sign: (StoredAuthority, UInt64) throws -> Certificate) throws -> IssuedCertificate {
        try connection.transaction(immediate: true) {
            let ca = try existing(name)
            guard ca.lastSerial < UInt64(Int64.max) else { throw CertificateAuthorityRefusal.serialsExhausted(ca.name) }
            let serial = ca.lastSerial + 1
            let certificate = try sign(ca, serial)
            guard certificate.serial == serial, certificate.signatureKey.blob == ca.publicKeyBlob else {
                throw HostStoreError.database(code: 1, message: "the certificate does not carry the serial or key of its CA")
            }
            _ = try connection.run("UPDATE certificate_authorities SET last_serial = ? WHERE id = ?", [.int(Int64(serial)), .int(ca.id)])
            _ = try connection.run("""
                INSERT INTO ca_certificates (ca_id, serial, key_id, fingerprint, valid_before, certificate, signed_at)
                VALUES (?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ','now'))
                """, [.int(ca.id), .int(Int64(serial)), .text(certificate.keyID), .text(certificate.key.sha256Fingerprint),
                      .int(Int64(clamping: certificate.validBefore)), .blob(certificate.blob)])
            let signedAt = try connection.query("SELECT signed_at FROM ca_certificates WHERE ca_id = ? AND serial = ?",
                                                [.int(ca.id), .int(Int64(serial))]).first?.text(0) ?? ""
            return IssuedCertificate(serial: serial, signedAt: signedAt, certificate: certificate)
        }
    }

    /// Every certificate the CA called `name` issued, by serial.
    public func issued(authority name: String) throws -> [IssuedCertificate] {
        let ca = try existing(name)
        return try connection.query("SELECT serial, signed_at, certificate FROM ca_certificates WHERE ca_id = ? ORDER BY serial",
                                    [.int(ca.id)]).compactMap { row in
            guard let cert = try? Certificate(blob: row.blob(2) ?? []) else { return nil }
            return IssuedCertificate(serial: UInt64(row.int(0) ?? 0), signedAt: row.text(1) ?? "", certificate: cert)
        }
    }

    /// Records a revocation; false when it was recorded already (nothing changes). A serial
    /// the CA never gave is refused. Each new revocation raises the CA's KRL version.
    @discardableResult
    public func revoke(authority name: String, _ what: AuthorityRevocation.What) throws -> Bool {
        try connection.transaction(immediate: true) {
            let ca = try existing(name)
            let bindings: [SQLValue]
            switch what {
            case .serial(let serial):
                guard serial > 0, serial <= ca.lastSerial else {
                    throw CertificateAuthorityRefusal.serialNotIssued(authority: ca.name, serial: serial, lastSerial: ca.lastSerial)
                }
                bindings = [.int(ca.id), .text("serial"), .int(Int64(serial)), .null, .null]
            case .key(let key):
                bindings = [.int(ca.id), .text("key"), .null, .blob(key.blob), .null]
            case .keyID(let id):
                bindings = [.int(ca.id), .text("key-id"), .null, .null, .text(id)]
            }
            let added = try connection.run("""
                INSERT OR IGNORE INTO ca_revocations (ca_id, kind, serial, public_key, key_id, revoked_at)
                VALUES (?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ','now'))
                """, bindings)
            guard added > 0 else { return false }
            _ = try connection.run("UPDATE certificate_authorities SET krl_version = krl_version + 1 WHERE id = ?", [.int(ca.id)])
            return true
        }
    }

    /// What the CA called `name` revoked, in the order it was revoked.
    public func revocations(authority name: String) throws -> [AuthorityRevocation] {
        let ca = try existing(name)
        return try connection.query("SELECT kind, serial, public_key, key_id, revoked_at FROM ca_revocations WHERE ca_id = ? ORDER BY id",
                                    [.int(ca.id)]).compactMap { row in
            let what: AuthorityRevocation.What
            switch row.text(0) {
            case "serial": what = .serial(UInt64(row.int(1) ?? 0))
            case "key":
                guard let key = try? PublicKey(blob: row.blob(2) ?? []) else { return nil }
                what = .key(key)
            case "key-id": what = .keyID(row.text(3) ?? "")
            default: return nil
            }
            return AuthorityRevocation(what: what, revokedAt: row.text(4) ?? "")
        }
    }

    /// When the CA called `name` last revoked something (seconds since the epoch; 0 when
    /// never): the date of a KRL that does not change until the next revocation.
    public func lastRevocationTime(authority name: String) throws -> UInt64 {
        let ca = try existing(name)
        let t = try connection.query("SELECT CAST(strftime('%s', max(revoked_at)) AS INTEGER) FROM ca_revocations WHERE ca_id = ?",
                                     [.int(ca.id)]).first?.int(0) ?? 0
        return UInt64(max(0, t))
    }

    /// The CA's KRL: its revoked serials and key ids under its key, its revoked keys by
    /// SHA-256 hash; versioned by the CA's count of revocations, dated `now`.
    public func revocationList(authority name: String, now: UInt64) throws -> KeyRevocationList {
        try connection.transaction(immediate: false) {
            let ca = try existing(name)
            var certs = KeyRevocationList.CertificateRevocations(caKey: ca.publicKeyBlob)
            var hashes: [[UInt8]] = []
            for r in try revocations(authority: name) {
                switch r.what {
                case .serial(let s): certs.serials.append(s)
                case .keyID(let id): certs.keyIDs.append(id)
                case .key(let key): hashes.append(Digest.sha256(key.blob))
                }
            }
            let sections = certs.serials.isEmpty && certs.keyIDs.isEmpty ? [] : [certs]
            return KeyRevocationList(version: ca.krlVersion, generatedDate: now, comment: "hostbook CA \(ca.name)",
                                     certificates: sections, sha256Hashes: hashes)
        }
    }

    private static func decode(_ row: Row) -> StoredAuthority {
        StoredAuthority(id: row.int(0) ?? 0, uuid: row.text(1) ?? "", name: row.text(2) ?? "", algorithm: row.text(3) ?? "",
                        fingerprint: row.text(4) ?? "", publicKeyBlob: row.blob(5) ?? [],
                        lastSerial: UInt64(max(0, row.int(6) ?? 0)), krlVersion: UInt64(max(0, row.int(7) ?? 0)),
                        createdAt: row.text(8) ?? "")
    }
}
