// The other ssh agents whose keys hostbook's agents sign through (schema v12): the setting
// `hostbook keys import-agent` adds the socket it read to, and `hostbook agent upstream`
// lists and changes. The standing agent reads it when it starts (beside its --upstream
// options) and `hostbook ssh` for each session; a saved key located `upstream` is asked of
// these sockets by fingerprint. Only socket paths: nothing secret.
//
// agent_upstreams
//   socket    the agent's socket path, absolute
//   added_at  UTC, ISO 8601

enum AgentUpstreamsSchema {
    static let v12 = """
    CREATE TABLE agent_upstreams (
        socket   TEXT PRIMARY KEY,
        added_at TEXT NOT NULL
    );

    """
}

public struct AgentUpstreams {
    let connection: SQLiteConnection

    public init(database: HostDatabase) { self.connection = database.connection }

    /// The saved sockets, in the order they were added (the order they are asked in).
    public func list() throws -> [String] {
        try connection.query("SELECT socket FROM agent_upstreams ORDER BY rowid").compactMap { $0.text(0) }
    }

    /// Adds `socket`; false when it was saved already.
    @discardableResult
    public func add(_ socket: String) throws -> Bool {
        try connection.run("""
            INSERT OR IGNORE INTO agent_upstreams (socket, added_at) VALUES (?, strftime('%Y-%m-%dT%H:%M:%SZ','now'))
            """, [.text(socket)]) > 0
    }

    /// Removes `socket`; false when it was not saved.
    @discardableResult
    public func remove(_ socket: String) throws -> Bool {
        try connection.run("DELETE FROM agent_upstreams WHERE socket = ?", [.text(socket)]) > 0
    }
}
