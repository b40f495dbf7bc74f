// The other names of a host (`add/edit --alias`, `Host devbox dev` in an ssh_config): one
// row per alias. An alias is unique among aliases here (any letter case) and among host
// names by HostRepository, which checks both directions on every write.

enum HostAliasSchema {
    static let v5 = """
    CREATE TABLE host_aliases (
        alias   TEXT NOT NULL PRIMARY KEY COLLATE NOCASE,
        host_id INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE
    );
    CREATE INDEX host_aliases_host ON host_aliases(host_id);

    """

    /// Whether the table exists (a dry run or a completion may read a database not yet
    /// migrated to version 5).
    static func isPresent(_ connection: SQLiteConnection) throws -> Bool {
        try connection.query("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'host_aliases'").first?.int(0) == 1
    }
}
