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
        let hex = b.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        let c = Array(hex)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
    }
}
