// Schema versions (`PRAGMA user_version`) and the migrations between them (docs/hosts.md,
// "The database"). Each migration runs in one transaction, after a backup copy of the file when an
// existing database is migrated. Tables are declared beside the code that owns them
// (CoreSchema, KeysSchema, KnownHostsSchema, TailscaleSchema, SSHConfigSchema) and assembled here.
#if canImport(Glibc)
import Glibc
#endif
import KeyFormats
import System

public struct Migration: Sendable {
    public let version: Int
    public let sql: String
}

public enum Schema {
    /// The schema version this program writes.
    public static var currentVersion: Int { migrations.last!.version }

    static let migrations: [Migration] = [
        Migration(version: 1, sql: CoreSchema.v1 + KeysSchema.v1 + KnownHostsSchema.v1),
        Migration(version: 2, sql: CoreSchema.v2 + TailscaleSchema.v1),
        // Version 3: where ssh_config hosts came from, the agent's log and per-host agent
        // forwarding; checks keep no plaintext names.
        Migration(version: 3, sql: SSHConfigSchema.v1 + AgentLogSchema.v3 + KnownHostsSchema.v3),
        // Version 4: the known-hosts indexes leave out rows their lookups never find.
        Migration(version: 4, sql: KnownHostsSchema.v4),
        // Version 5: a host's aliases; the agent log's reason for a refusal; keys restricted
        // to SSHSIG namespaces and the keys set up for git; keys that ask before each
        // signature and their grants; how the agent decided each signature, for whom and
        // through which hosts.
        Migration(version: 5, sql: HostAliasSchema.v5 + AgentLogSchema.v5Reason + KeysSchema.v5GitSigning
                                   + KeysSchema.v5Approval + AgentLogSchema.v5Decision),
        // Version 6: team bundles (signers, subscriptions, applied serials, their snippets).
        Migration(version: 6, sql: BundleSchema.v6 + KnownHostsSchema.v6BundleSource),
        // Version 7: the compact known-hosts layout (fingerprints, import metadata, `hashed`
        // and imported events derived instead of stored).
        Migration(version: 7, sql: KnownHostsSchema.v7),
        // Version 8: a key's certificate; the agent log names the certificate a signature was for.
        Migration(version: 8, sql: KeysSchema.v8Certificates + AgentLogSchema.v8Certificate),
        // Version 9: certificate authorities, the certificates they signed and what they
        // revoked (`hostbook ca`).
        Migration(version: 9, sql: CertificateAuthoritySchema.v9),
        // Version 10: the hosts whose host-key rotation is turned off.
        Migration(version: 10, sql: KnownHostsSchema.v10Rotation),
        // Version 11: the serial last exported for each bundle name.
        Migration(version: 11, sql: BundleSchema.v11),
        // Version 12: where each key's private half lives (KeyLocation) and an sk key's
        // flags; the upstream agents the standing agent signs through (AgentUpstreams).
        Migration(version: 12, sql: KeysSchema.v12Location + AgentUpstreamsSchema.v12),
        // Version 13: the hosts published in bundles without their user; snippets' tags.
        Migration(version: 13, sql: BundleSchema.v13UserOmitted + CoreSchema.v13SnippetTags),
        // Version 14: keys that live on PKCS#11 tokens (public halves and the token's identity).
        Migration(version: 14, sql: KeysSchema.v14TokenKeys),
        // Version 15: the scope a subscriber granted a bundle's certificate authority; the
        // key revocation lists bundles brought.
        Migration(version: 15, sql: BundleSchema.v15CAScopes + KnownHostsSchema.v15RevocationLists),
    ]

    /// Reads the version and refuses a database newer than this program; returns the version.
    @discardableResult
    static func refuseNewer(_ conn: SQLiteConnection) throws -> Int {
        let version = try conn.userVersion
        if version > currentVersion {
            throw HostStoreError(.newerSchema,
                                 "database schema version \(version) is newer than this hostbook supports (\(currentVersion)); upgrade hostbook",
                                 hint: "The database '\(conn.path)' was left untouched.")
        }
        return version
    }

    /// Version 0 with tables is another program's database (hostbook's first migration
    /// creates its tables and sets the version in one transaction): refused, untouched.
    static func refuseForeign(_ conn: SQLiteConnection, path: String) throws {
        if try conn.userVersion == 0, try conn.query("SELECT count(*) FROM sqlite_master").first?.int(0) ?? 0 > 0 {
            throw HostStoreError(.failed, "'\(path)' is an SQLite database, but not a hostbook database",
                                 hint: "Choose another path with --db or $HOSTBOOK_DB; the file was left untouched.")
        }
    }

    /// Brings the database at `path` up to `target`: a backup first when it already holds
    /// data, then one transaction per migration. Safe against a second process doing the
    /// same at the same time (each step re-reads the version under the write lock).
    static func migrate(_ conn: SQLiteConnection, path: String, to target: Int = currentVersion) throws {
        let start = try refuseNewer(conn)
        guard start < target else { return }
        try refuseForeign(conn, path: path)
        if start > 0 { try backup(conn, path: path, version: start) }
        for m in migrations where m.version > start && m.version <= target {
            try conn.transaction(immediate: true) {
                guard try refuseNewer(conn) < m.version else { return }
                try conn.execute(m.sql)
                if m.version == 1 {
                    try conn.run("INSERT INTO meta(key, value) VALUES ('database_id', ?), ('created_at', strftime('%Y-%m-%dT%H:%M:%SZ','now'))",
                                 [.text(UUIDString.random())])
                }
                try conn.setUserVersion(m.version)
            }
        }
    }

    /// Brings the database of `conn` up to date (see `migrate(_:path:to:)`).
    static func migrate(_ conn: SQLiteConnection) throws {
        try migrate(conn, path: conn.path)
    }

    /// A consistent copy of the whole database (VACUUM INTO reads one snapshot, WAL included)
    /// into a new 0600 file beside it, `hostbook.db.v1.bak`. It is written under a
    /// temporary name and linked into place only when complete, so a `.bak` file is never a
    /// torn copy (a process killed half way leaves `hostbook.db.v1.<pid>.partial`, which
    /// `hostbook doctor` reports).
    static func backup(_ conn: SQLiteConnection, path: String, version: Int) throws {
        let partial = "\(path).v\(version).\(getpid()).partial"
        _ = unlink(partial)
        try DatabaseFiles.createPrivateFile(partial)
        do {
            try conn.run("VACUUM INTO ?", [.text(partial)])
        } catch let e as HostStoreError where e.kind == .database {
            _ = unlink(partial)
            throw HostStoreError(.failed, "cannot back up the database to '\(partial)' before migrating it: \(e.message)",
                                 hint: "Free some disk space or fix the folder's permissions; the database was not changed.")
        }
        // On disk before it gets its name, and the name on disk before the migration starts.
        DatabaseFiles.sync(partial)
        // link(2) never replaces an existing file: a name taken meanwhile means the next one.
        while true {
            let target = DatabaseFiles.backupPath(for: path, version: version)
            if link(partial, target) == 0 { break }
            if errno != EEXIST {
                let why = String(cString: strerror(errno))
                _ = unlink(partial)
                throw HostStoreError(.failed, "cannot name the backup '\(target)': \(why)",
                                     hint: "Fix the folder's permissions; the database was not changed.")
            }
        }
        _ = unlink(partial)
        DatabaseFiles.sync(ParentFolder.of(path))
    }
}

/// Random version-4 UUIDs from libsodium's CSPRNG.
public enum UUIDString {
    public static func random() -> String {
        var b = RandomBytes.generate(16)
        b[6] = (b[6] & 0x0f) | 0x40
        b[8] = (b[8] & 0x3f) | 0x80
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (i, byte) in b.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
