// What hostbook remembers about a host imported from Tailscale beyond the `hosts` row:
// the device's OS and online state (DESIGN.md, "Tailscale import") and the Tailscale tags
// the last import wrote, so a re-import changes only those and keeps the user's own tags.
//
// `v1` is the fragment for the migrations list (Schema.swift). Until it is listed there,
// the importer creates these objects itself, in its own transaction, the first time it
// writes (`ensure`); every statement is IF NOT EXISTS, so both can run.

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

    /// True when the table exists (it may not on a database no import has written to).
    static func isPresent(_ connection: SQLiteConnection) throws -> Bool {
        try connection.query("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'tailscale_nodes'").first?.int(0) == 1
    }

    /// Creates the objects when missing; call inside the import's write transaction.
    static func ensure(_ connection: SQLiteConnection) throws {
        if try !isPresent(connection) { try connection.execute(v1) }
    }
}
