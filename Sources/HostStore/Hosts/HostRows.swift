// Hosts streamed straight from SQLite, for listings of thousands of hosts: no `Host`
// values and no Strings are built; the caller reads each field's bytes in place
// (benchmarks/README.md, "hosts").

/// The fields of a host row, in the order of `HostDatabase.hostColumns`.
public enum HostField: Int32, Sendable {
    case uuid = 1, name, hostname, port, user, auth, key, jump, note, source, sourceID, createdAt, updatedAt
}

/// The current row of a host listing; valid only inside the `forEachHost` callback.
public struct HostRow {
    let statement: Statement
    /// The host's tags, sorted.
    public let tags: [String]
    /// What Tailscale said about the device; nil for hosts not imported from Tailscale.
    public let tailscale: TailscaleDetails?
    /// The host's aliases, sorted.
    public let aliases: [String]
    /// The fields the user overrode on a bundle's host (empty for every other host).
    public let overrides: [BundleOverride]

    init(statement: Statement, tags: [String], tailscale: TailscaleDetails?, aliases: [String], overrides: [BundleOverride] = []) {
        self.statement = statement
        self.tags = tags
        self.tailscale = tailscale
        self.aliases = aliases
        self.overrides = overrides
    }

    /// The field's UTF-8 bytes (nil when NULL), valid only inside `body`.
    public func withUTF8<R>(_ field: HostField, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
        try statement.withUTF8(at: field.rawValue, body)
    }

    public var port: Int { Int(statement.int(at: HostField.port.rawValue) ?? 22) }
}

extension HostDatabase {
    /// Calls `body` for each host in name order (optionally only those with every tag in
    /// `tags` and from `source`), the same hosts `hosts(tags:source:)` returns.
    public func forEachHost(tags: [String] = [], source: String? = nil, _ body: (HostRow) throws -> Void) throws {
        try read {
            var tagsByHost: [Int64: [String]] = [:]
            let t = try connection.prepare("SELECT host_id, tag FROM host_tags ORDER BY host_id, tag COLLATE NOCASE")
            while try t.step() { tagsByHost[t.int(at: 0)!, default: []].append(t.text(at: 1) ?? "") }
            let tailscale = try tailscaleDetailsByHost()
            let aliases = try aliasesByHost()
            let (sql, binds) = HostDatabase.listQuery(tags: tags, source: source)
            let s = try connection.prepare(sql)
            try s.bind(binds)
            let overridden = try overridesByHost()
            while try s.step() {
                let id = s.int(at: 0) ?? 0
                var overrides: [BundleOverride] = []
                if let values = overridden[id] {
                    var h = HostDatabase.host(from: s)
                    h.tags = tagsByHost[id] ?? []
                    h.aliases = aliases[id] ?? []
                    overrides = HostDatabase.overrides(of: h, values)
                }
                try body(HostRow(statement: s, tags: tagsByHost[id] ?? [], tailscale: tailscale[id], aliases: aliases[id] ?? [], overrides: overrides))
            }
        }
    }
}
