// The host repository's reader and writer for importers that add and update many hosts
// inside a transaction they own (the Tailscale and ssh_config imports): what the importers
// need to read about the saved hosts, and their writes, with statements prepared once and
// reused per host. What to write is the importer's plan; the importers run no SQL of their
// own (the writes are HostSQL's, shared with HostRepository).

final class HostBulkWriter {
    let connection: SQLiteConnection
    /// Statements prepared on first use (a dry run never prepares a write, so it also works
    /// on a read-only database that has not been migrated yet), by `Write`.
    private var prepared: [Statement?] = Array(repeating: nil, count: Write.allCases.count)

    /// The writes, in HostSQL.
    private enum Write: Int, CaseIterable {
        case insertHost, insertTag, deleteTag, updateFromTailscale, updateFromSSHConfig, setJump, saveTailscaleNode, saveSSHConfigOrigin,
             insertAlias

        var sql: String {
            switch self {
            case .insertHost: return HostSQL.insertImported
            case .insertTag: return HostSQL.insertTagIfMissing
            case .deleteTag: return HostSQL.deleteTag
            case .updateFromTailscale: return HostSQL.updateFromTailscale
            case .updateFromSSHConfig: return HostSQL.updateFromSSHConfig
            case .setJump: return HostSQL.setJump
            case .saveTailscaleNode: return HostSQL.saveTailscaleNode
            case .saveSSHConfigOrigin: return HostSQL.saveSSHConfigOrigin
            case .insertAlias: return HostSQL.insertAlias
            }
        }
    }

    /// Must be used inside a transaction on `connection`.
    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    // MARK: Reading

    /// A saved host as an importer sees it, with what the Tailscale import wrote about it
    /// (`node`, nil when it has no `tailscale_nodes` row).
    struct TailscaleCandidate {
        let id: Int64
        let name: String
        let source: String
        let sourceID: String?
        let hasUser: Bool
        let hostname: String
        let port: Int
        let node: TailscaleNodeRow?
    }

    /// Every saved alias and its host's id: names an imported host cannot take.
    func aliases() throws -> [(hostID: Int64, alias: String)] {
        guard try HostAliasSchema.isPresent(connection) else { return [] }
        return try connection.query(HostSQL.allAliases).compactMap { row in
            guard let id = row.int(0), let alias = row.text(1) else { return nil }
            return (id, alias)
        }
    }

    /// Calls `body` for every saved host (one row at a time: 100,000 hosts are not held).
    func forEachHostForTailscale(_ body: (TailscaleCandidate) throws -> Void) throws {
        let withNodes = try TailscaleSchema.isPresent(connection)
        let s = try connection.prepare(withNodes ? """
            SELECT h.id, h.name, h.source, h.source_id, h.user IS NOT NULL, h.hostname,
                   t.host_id, t.dns_name, t.os, t.online, t.last_seen, t.owner, t.tags, h.port
            FROM hosts h LEFT JOIN tailscale_nodes t ON t.host_id = h.id
            """ : """
            SELECT id, name, source, source_id, user IS NOT NULL, hostname,
                   NULL, NULL, NULL, NULL, NULL, NULL, NULL, port
            FROM hosts
            """)
        while try s.step() {
            guard let id = s.int(at: 0), let name = s.text(at: 1) else { continue }
            var node: TailscaleNodeRow?
            if s.int(at: 6) != nil {
                node = TailscaleNodeRow(dnsName: s.text(at: 7) ?? "", os: s.text(at: 8) ?? "", online: s.int(at: 9).map { $0 != 0 },
                                        lastSeen: s.text(at: 10), owner: s.text(at: 11),
                                        tags: TailscaleNodeRow.splitTags(s.text(at: 12) ?? ""))
            }
            try body(TailscaleCandidate(id: id, name: name, source: s.text(at: 2) ?? "", sourceID: s.text(at: 3),
                                        hasUser: s.int(at: 4) == 1, hostname: s.text(at: 5) ?? "", port: Int(s.int(at: 13) ?? 22), node: node))
        }
    }

    /// A saved host as the ssh_config import compares it, with where an earlier ssh_config
    /// import took it from (nil when it did not).
    struct SavedSSHConfigHost {
        let id: Int64
        let name: String
        let hostname: String
        let port: Int
        let user: String?
        let auth: String
        let keyID: Int64?
        let jumpID: Int64?
        let source: String?
        let sourceID: String?
        let sourceFile: String?
        let sourceLine: Int?
    }

    /// Every saved host, with its ssh_config origin.
    func hostsForSSHConfig() throws -> [SavedSSHConfigHost] {
        let hosts = try connection.prepare(try SSHConfigSchema.isPresent(connection) ? """
            SELECT h.id, h.name, h.hostname, h.port, h.user, h.auth, h.key_id, h.jump_host_id, h.source, h.source_id,
                   s.source_file, s.source_line
            FROM hosts h LEFT JOIN ssh_config_hosts s ON s.host_id = h.id
            """ : """
            SELECT id, name, hostname, port, user, auth, key_id, jump_host_id, source, source_id, NULL, NULL FROM hosts
            """)
        var out: [SavedSSHConfigHost] = []
        while try hosts.step() {
            guard let id = hosts.int(at: 0), let name = hosts.text(at: 1) else { continue }
            out.append(SavedSSHConfigHost(id: id, name: name, hostname: hosts.text(at: 2) ?? "", port: Int(hosts.int(at: 3) ?? 22),
                                          user: hosts.text(at: 4), auth: hosts.text(at: 5) ?? "agent", keyID: hosts.int(at: 6),
                                          jumpID: hosts.int(at: 7), source: hosts.text(at: 8), sourceID: hosts.text(at: 9),
                                          sourceFile: hosts.text(at: 10), sourceLine: hosts.int(at: 11).map { Int($0) }))
        }
        return out
    }

    // MARK: Writing hosts

    /// A host to add.
    struct NewRow: Equatable {
        var name: String
        var hostname: String
        var port = 22
        var user: String?
        var auth: HostAuth = .agent
        var keyID: Int64?
        var source: String
        var sourceID: String
        var tags: [String] = []
    }

    /// Adds a host; returns its row id.
    func add(_ row: NewRow, at now: String) throws -> Int64 {
        try run(.insertHost, [.text(UUIDString.random()), .text(row.name), .text(row.hostname), .int(Int64(row.port)), opt(row.user),
                  .text(row.auth.rawValue), opt(row.keyID), .text(row.source), .text(row.sourceID), .text(now), .text(now)])
        let id = connection.lastInsertRowID
        for tag in row.tags { try run(.insertTag, [.int(id), .text(tag)]) }
        return id
    }

    /// Sets the hostname (and the user, when the host has none) and moves the tags from
    /// `oldTags` to `tags` (the Tailscale import's update).
    func update(id: Int64, hostname: String, user: String?, oldTags: [String], tags: [String], at now: String) throws {
        try run(.updateFromTailscale, [.text(hostname), opt(user), .text(now), .int(id)])
        let old = Set(oldTags), new = Set(tags)
        for tag in tags where !old.contains(tag) { try run(.insertTag, [.int(id), .text(tag)]) }
        for tag in oldTags where !new.contains(tag) { try run(.deleteTag, [.int(id), .text(tag)]) }
    }

    /// Sets what an ssh_config Host block says about a host (the ssh_config import's update).
    func update(id: Int64, hostname: String, port: Int, user: String?, auth: String, keyID: Int64?, at now: String) throws {
        try run(.updateFromSSHConfig, [.text(hostname), .int(Int64(port)), opt(user), .text(auth), opt(keyID), .text(now), .int(id)])
    }

    /// Sets (or clears) a host's jump host.
    func setJump(id: Int64, jumpID: Int64?) throws {
        try run(.setJump, [opt(jumpID), .int(id)])
    }

    // MARK: Writing importer records

    /// Writes (or replaces) the `tailscale_nodes` row of a host.
    func saveTailscaleNode(hostID: Int64, nodeID: String, _ s: TailscaleNodeRow, at now: String) throws {
        try run(.saveTailscaleNode, [.int(hostID), .text(nodeID), .text(s.dnsName), .text(s.os), s.online.map { .int($0 ? 1 : 0) } ?? .null,
                  opt(s.lastSeen), opt(s.owner), .text(s.tags.joined(separator: " ")), .text(now)])
    }

    /// A new alias of the host `hostID` (the caller knows it is free).
    func addAlias(_ alias: String, hostID: Int64) throws {
        try run(.insertAlias, [.text(alias), .int(hostID)])
    }

    /// Writes (or replaces) where an ssh_config import took a host from.
    func saveSSHConfigOrigin(hostID: Int64, alias: String, file: String, line: Int, at now: String) throws {
        try run(.saveSSHConfigOrigin, [.int(hostID), .text(alias), .text(file), .int(Int64(line)), .text(now)])
    }

    // MARK: Helpers

    private func opt(_ s: String?) -> SQLValue { s.map { .text($0) } ?? .null }
    private func opt(_ i: Int64?) -> SQLValue { i.map { .int($0) } ?? .null }

    private func run(_ write: Write, _ values: [SQLValue]) throws {
        let statement: Statement
        if let s = prepared[write.rawValue] {
            statement = s
        } else {
            statement = try connection.prepare(write.sql)
            prepared[write.rawValue] = statement
        }
        statement.reset()
        try statement.bind(values)
        while try statement.step() {}
    }
}
