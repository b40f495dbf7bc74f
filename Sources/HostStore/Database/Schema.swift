// Schema versions (`PRAGMA user_version`) and the migrations between them (DESIGN.md,
// "Data"). Each migration runs in one transaction, after a backup copy of the file when an
// existing database is migrated. Tables are declared beside the code that owns them
// (CoreSchema, KeysSchema, KnownHostsSchema) and assembled here.
import KeyFormats

public struct Migration: Sendable {
    public let version: Int
    public let sql: String
}

public enum Schema {
    /// The schema version this program writes.
    public static var currentVersion: Int { migrations.last!.version }

    static let migrations: [Migration] = [
        Migration(version: 1, sql: CoreSchema.v1 + KeysSchema.v1 + KnownHostsSchema.v1),
        Migration(version: 2, sql: CoreSchema.v2),
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

    /// Brings the database at `path` up to `target`: a backup first when it already holds
    /// data, then one transaction per migration. Safe against a second process doing the
    /// same at the same time (each step re-reads the version under the write lock).
    static func migrate(_ conn: SQLiteConnection, path: String, to target: Int = currentVersion) throws {
        let start = try refuseNewer(conn)
        guard start < target else { return }
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

    /// A consistent copy of the whole database (VACUUM INTO reads one snapshot, WAL included)
    /// into a new 0600 file beside it: `hostbook.db.v1.bak`.
    static func backup(_ conn: SQLiteConnection, path: String, version: Int) throws {
        let target = DatabaseFiles.backupPath(for: path, version: version)
        try DatabaseFiles.createPrivateFile(target)
        do {
            try conn.run("VACUUM INTO ?", [.text(target)])
        } catch let e as DatabaseError {
            throw HostStoreError(.failed, "cannot back up the database to '\(target)' before migrating it: \(e.message)",
                                 hint: "Free some disk space or fix the folder's permissions; the database was not changed.")
        }
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
