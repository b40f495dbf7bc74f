// What hostbook remembers about a host imported from Tailscale beyond the `hosts` row:
// the device's OS and online state (DESIGN.md, "Tailscale import") and the Tailscale tags
// the last import wrote, so a re-import changes only those and keeps the user's own tags.
// Owned by the Tailscale importer; assembled into the migrations by Schema.swift.

enum TailscaleSchema {
    static let v1 = """
    CREATE TABLE tailscale_nodes (
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
    CREATE INDEX tailscale_known_hosts_pattern ON known_hosts(pattern, port);

    """
}
