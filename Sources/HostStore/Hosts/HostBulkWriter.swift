// The host repository's writer for importers that add and update many hosts inside a
// transaction they own (the Tailscale import): statements prepared once, reused per host.
// What to write is the importer's plan; the SQL over `hosts` and `host_tags` stays here,
// beside HostRepository's.

final class HostBulkWriter {
    let connection: SQLiteConnection
    private let insertHost: Statement
    private let updateHost: Statement
    private let insertTag: Statement
    private let deleteTag: Statement

    /// Must be used inside a transaction on `connection`.
    init(connection: SQLiteConnection) throws {
        self.connection = connection
        insertHost = try connection.prepare("""
            INSERT INTO hosts (uuid, name, hostname, port, user, auth, source, source_id, created_at, updated_at)
            VALUES (?, ?, ?, 22, ?, 'agent', ?, ?, ?, ?)
            """)
        updateHost = try connection.prepare("UPDATE hosts SET hostname = ?, user = COALESCE(user, ?), updated_at = ? WHERE id = ?")
        insertTag = try connection.prepare("INSERT OR IGNORE INTO host_tags (host_id, tag) VALUES (?, ?)")
        deleteTag = try connection.prepare("DELETE FROM host_tags WHERE host_id = ? AND tag = ?")
    }

    /// Adds a host on port 22 with agent auth from `source`; returns its row id.
    func add(name: String, hostname: String, user: String?, source: String, sourceID: String, tags: [String], at now: String) throws -> Int64 {
        try run(insertHost, [.text(UUIDString.random()), .text(name), .text(hostname), user.map { .text($0) } ?? .null,
                             .text(source), .text(sourceID), .text(now), .text(now)])
        let id = connection.lastInsertRowID
        for tag in tags { try run(insertTag, [.int(id), .text(tag)]) }
        return id
    }

    /// Sets the hostname (and the user, when the host has none) and moves the tags from
    /// `oldTags` to `tags`.
    func update(id: Int64, hostname: String, user: String?, oldTags: [String], tags: [String], at now: String) throws {
        try run(updateHost, [.text(hostname), user.map { .text($0) } ?? .null, .text(now), .int(id)])
        let old = Set(oldTags), new = Set(tags)
        for tag in tags where !old.contains(tag) { try run(insertTag, [.int(id), .text(tag)]) }
        for tag in oldTags where !new.contains(tag) { try run(deleteTag, [.int(id), .text(tag)]) }
    }

    private func run(_ statement: Statement, _ values: [SQLValue]) throws {
        statement.reset()
        try statement.bind(values)
        while try statement.step() {}
    }
}
