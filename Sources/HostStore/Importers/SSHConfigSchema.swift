// Where each host imported from ssh_config came from: the Host alias (also the host's
// `source_id`), the file and the line of the Host line that first names it. A re-import
// matches hosts by alias and updates these.
//
// `v1` is schema migration 3 (Schema.swift). A dry run may read a database that has not
// been migrated yet (it opens read-only), so the importer checks `isPresent`.

enum SSHConfigSchema {
    static let v1 = """
    CREATE TABLE IF NOT EXISTS ssh_config_hosts (
        host_id     INTEGER PRIMARY KEY REFERENCES hosts(id) ON DELETE CASCADE,
        alias       TEXT NOT NULL,
        source_file TEXT NOT NULL,
        source_line INTEGER NOT NULL,
        imported_at TEXT NOT NULL
    );

    """

    static func isPresent(_ connection: SQLiteConnection) throws -> Bool {
        try connection.query("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'ssh_config_hosts'").first?.int(0) == 1
    }
}
