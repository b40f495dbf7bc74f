// Key metadata in the `keys` table (KeysSchema): public material only. The private key
// lives in the vault under the key's uuid; the Credentials library (CredentialStore) orders
// the writes to both stores. Whether a new key may be stored is decided here, in
// `checkFree`, and nowhere else.
public import KeyFormats

/// One row of the `keys` table.
public struct StoredKey: Sendable, Equatable {
    public let id: Int64
    public let uuid: String
    public let name: String
    /// Key type wire name, e.g. `ssh-ed25519`.
    public let algorithm: String
    public let bits: Int
    /// `SHA256:...` as `ssh-keygen -l` prints it.
    public let fingerprint: String
    /// The public key wire blob.
    public let publicKeyBlob: [UInt8]
    public let comment: String
    /// `PrivateKeyFormat` raw value of the file the key came from (`generated` for new keys).
    public let format: String
    /// UTC, ISO 8601 (`2026-11-30T01:02:03Z`).
    public let createdAt: String
    /// Every signature with the key asks the user first (`keys edit --confirm`).
    public let confirm: Bool
    /// How long an approval covers the same key, destination and program (`--grant`); 0: none.
    public let grantSeconds: Int
    /// Where the private half lives, and so what signs with it.
    public let location: KeyLocation
    /// An sk key's enrolment flags, when known (nil for every other key, and for sk keys
    /// stored before hostbook recorded them).
    public let skFlags: SecurityKeyFlags?
    /// The certificate attached to the key (KeyCertificates), or nil.
    public let certificateBlob: [UInt8]?

    /// The attached certificate, parsed (nil: none).
    public var certificate: Certificate? { certificateBlob.flatMap { try? Certificate(blob: $0) } }

    /// The parsed public key (the blob was valid when stored).
    public var publicKey: PublicKey {
        get throws { try PublicKey(blob: publicKeyBlob) }
    }
}

/// What to store for a new key.
public struct NewKey: Sendable {
    public let uuid: String
    public let name: String
    public let publicKey: PublicKey
    public let comment: String
    public let format: String
    public let location: KeyLocation
    public let skFlags: SecurityKeyFlags?

    /// `location` nil: where a key read from a private key file lives (an sk key on its
    /// authenticator, any other in the vault).
    public init(uuid: String, name: String, publicKey: PublicKey, comment: String, format: String,
                location: KeyLocation? = nil, skFlags: SecurityKeyFlags? = nil) {
        self.uuid = uuid
        self.name = name
        self.publicKey = publicKey
        self.comment = comment
        self.format = format
        self.location = location ?? KeyLocation.ofPrivateKeyFile(publicKey)
        self.skFlags = skFlags
    }
}

/// What `hostbook keys edit` changes; nil leaves a field as it is.
public struct KeyChanges: Sendable, Equatable {
    public var rename: String?
    public var comment: String?
    public var confirm: Bool?
    public var grantSeconds: Int?

    public init(rename: String? = nil, comment: String? = nil, confirm: Bool? = nil, grantSeconds: Int? = nil) {
        self.rename = rename
        self.comment = comment
        self.confirm = confirm
        self.grantSeconds = grantSeconds
    }

    public var isEmpty: Bool { self == KeyChanges() }
}

public final class KeyStore {
    let connection: SQLiteConnection

    public init(database: HostDatabase) { self.connection = database.connection }
    init(connection: SQLiteConnection) { self.connection = connection }

    private static let columns = "id, uuid, name, algorithm, bits, fingerprint, public_key, comment, format, created_at, confirm, grant_seconds, "
        + "location, sk_flags, (SELECT certificate FROM key_certificates WHERE key_certificates.key_id = keys.id)"

    /// Whether a new key called `name` with this `SHA256:` fingerprint (nil: not known yet)
    /// may be stored: throws `.keyAlreadyStored` when the same key is stored (under any
    /// name; said first, since that is what the user most needs to know), else
    /// `.keyNameTaken` when the name is (KeyStoreRefusals.swift).
    public func checkFree(name: String, fingerprint: String?) throws {
        if let fingerprint, let existing = try find(fingerprint: fingerprint) {
            throw HostStoreError.keyAlreadyStored(existingName: existing.name, fingerprint: existing.fingerprint)
        }
        if try find(name: name) != nil { throw HostStoreError.keyNameTaken(name) }
    }

    /// Inserts a key in one transaction; refuses what `checkFree` refuses.
    @discardableResult
    public func insert(_ key: NewKey) throws -> StoredKey {
        try connection.transaction { try insertRow(key) }
    }

    /// Inserts several keys in one transaction (all or none); refuses what `checkFree`
    /// refuses for any of them (`keys import-agent`).
    @discardableResult
    public func insert(_ keys: [NewKey]) throws -> [StoredKey] {
        try connection.transaction { try keys.map { try insertRow($0) } }
    }

    /// One row, inside the caller's transaction.
    func insertRow(_ key: NewKey) throws -> StoredKey {
        let fingerprint = key.publicKey.sha256Fingerprint
        try checkFree(name: key.name, fingerprint: fingerprint)
        try connection.run("""
            INSERT INTO keys (uuid, name, algorithm, bits, fingerprint, public_key, comment, format, created_at,
                              location, sk_flags)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ','now'), ?, ?)
            """, [.text(key.uuid), .text(key.name), .text(key.publicKey.type), .int(Int64(key.publicKey.bits)),
                  .text(fingerprint), .blob(key.publicKey.blob), .text(key.comment), .text(key.format),
                  .text(key.location.rawValue), key.skFlags.map { .int(Int64($0.rawValue)) } ?? .null])
        guard let stored = try find(name: key.name) else {
            throw HostStoreError.database(code: 1, message: "the new key row could not be read back")
        }
        return stored
    }

    /// The key called `name` (case-insensitive), or nil.
    public func find(name: String) throws -> StoredKey? {
        try connection.query("SELECT \(Self.columns) FROM keys WHERE name = ?", [.text(name)]).first.map(Self.decode)
    }

    /// `base` when no saved key has that name, else the first free `base-2`, `base-3`, ...;
    /// a name in `besides` (lower-cased: names chosen for the same batch) counts as taken.
    public func freeName(_ base: String, besides: Set<String> = []) throws -> String {
        var name = base
        var n = 2
        while try besides.contains(name.lowercased()) || find(name: name) != nil {
            name = "\(base)-\(n)"
            n += 1
        }
        return name
    }

    /// The key with this `SHA256:` fingerprint, or nil.
    public func find(fingerprint: String) throws -> StoredKey? {
        try connection.query("SELECT \(Self.columns) FROM keys WHERE fingerprint = ?", [.text(fingerprint)]).first.map(Self.decode)
    }

    public func find(uuid: String) throws -> StoredKey? {
        try connection.query("SELECT \(Self.columns) FROM keys WHERE uuid = ?", [.text(uuid)]).first.map(Self.decode)
    }

    /// Every key, by name.
    public func list() throws -> [StoredKey] {
        try connection.query("SELECT \(Self.columns) FROM keys ORDER BY name COLLATE NOCASE, id").map(Self.decode)
    }

    /// Applies `changes` to the key called `name` in one transaction; returns the changed
    /// row, or nil when there is no such key. Refuses a new name another key has.
    @discardableResult
    public func update(name: String, _ changes: KeyChanges) throws -> StoredKey? {
        try connection.transaction {
            guard let key = try find(name: name) else { return nil }
            if let rename = changes.rename, let other = try find(name: rename), other.id != key.id {
                throw HostStoreError.keyNameTaken(other.name)
            }
            try connection.run("""
                UPDATE keys SET name = coalesce(?1, name), comment = coalesce(?2, comment),
                                confirm = coalesce(?3, confirm), grant_seconds = coalesce(?4, grant_seconds)
                WHERE id = ?5
                """, [changes.rename.map { .text($0) } ?? .null, changes.comment.map { .text($0) } ?? .null,
                      changes.confirm.map { .int($0 ? 1 : 0) } ?? .null, changes.grantSeconds.map { .int(Int64($0)) } ?? .null,
                      .int(key.id)])
            return try find(uuid: key.uuid)
        }
    }

    /// Deletes the key called `name`; returns the removed row, or nil when there was none.
    /// Refuses while hosts use the key.
    @discardableResult
    public func remove(name: String) throws -> StoredKey? {
        try connection.transaction {
            guard let key = try find(name: name) else { return nil }
            let hosts = try connection.query("SELECT name FROM hosts WHERE key_id = ? ORDER BY name", [.int(key.id)])
                .compactMap { $0.text(0) }
            guard hosts.isEmpty else { throw HostStoreError.keyInUse(name: key.name, hosts: hosts) }
            try connection.run("DELETE FROM keys WHERE id = ?", [.int(key.id)])
            return key
        }
    }

    private static func decode(_ row: Row) -> StoredKey {
        StoredKey(id: row.int(0) ?? 0, uuid: row.text(1) ?? "", name: row.text(2) ?? "", algorithm: row.text(3) ?? "",
                  bits: Int(row.int(4) ?? 0), fingerprint: row.text(5) ?? "", publicKeyBlob: row.blob(6) ?? [],
                  comment: row.text(7) ?? "", format: row.text(8) ?? "", createdAt: row.text(9) ?? "",
                  confirm: (row.int(10) ?? 0) != 0, grantSeconds: Int(row.int(11) ?? 0),
                  location: row.text(12).flatMap(KeyLocation.init(rawValue:)) ?? .vault,
                  skFlags: row.int(13).map { SecurityKeyFlags(rawValue: UInt8(truncatingIfNeeded: $0)) },
                  certificateBlob: row.blob(14))
    }
}
