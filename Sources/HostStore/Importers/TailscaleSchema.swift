// What hostbook remembers about a host imported from Tailscale beyond the `hosts` row:
// the device's OS and online state (docs/formats.md, "Tailscale JSON") and the Tailscale tags
// the last import wrote, so a re-import changes only those and keeps the user's own tags.
//
// `v1` is part of schema migration 2 (Schema.swift). A dry run may read a database that
// has not been migrated yet (it opens read-only), so the importer checks `isPresent`.

enum TailscaleSchema {
    static let v1 = """
    CREATE TABLE IF NOT EXISTS tailscale_nodes (
        host_id     INTEGER PRIMARY KEY REFERENCES hosts(id) ON DELETE CASCADE,
        node_id     TEXT NOT NULL,
        dns_name    TEXT NOT NULL,
        os          TEXT NOT NULL,
        online      INTEGER,
        last_seen   TEXT,
        owner       TEXT,
        tags        TEXT NOT NULL,
        imported_at TEXT NOT NULL
    );

    """

    /// True when the table exists (not on a version-1 database opened read-only).
    static func isPresent(_ connection: SQLiteConnection) throws -> Bool {
        try connection.query("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'tailscale_nodes'").first?.int(0) == 1
    }
}
