// Schema versions (`PRAGMA user_version`) and the migrations between them. Each migration
// runs in one transaction. Tables are declared beside the code that owns them
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
        Migration(version: 1, sql: CoreSchema.v1 + KeysSchema.v1 + KnownHostsSchema.v1 + TailscaleSchema.v1),
    ]

    static func migrate(_ conn: SQLiteConnection) throws {
        let current = try conn.userVersion
        for m in migrations where m.version > current {
            try conn.transaction {
                try conn.execute(m.sql)
                if m.version == 1 {
                    try conn.run("INSERT INTO meta(key, value) VALUES ('database_id', ?), ('created_at', strftime('%Y-%m-%dT%H:%M:%SZ','now'))",
                                 [.text(UUIDString.random())])
                }
                try conn.setUserVersion(m.version)
            }
        }
    }
}

/// Random version-4 UUIDs from libsodium's CSPRNG (via KeyFormats' digest-free helper).
public enum UUIDString {
    public static func random() -> String {
        var b = RandomBytes.generate(16)
        b[6] = (b[6] & 0x0f) | 0x40
        b[8] = (b[8] & 0x3f) | 0x80
        // 8-4-4-4-12 lower-case hex digits, built in one buffer (imports create 100,000 at a time).
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (i, byte) in b.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
