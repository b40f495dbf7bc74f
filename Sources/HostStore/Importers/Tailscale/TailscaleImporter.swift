// Plans and applies a Tailscale import in one transaction (DESIGN.md, "Tailscale import"):
// hosts are matched by node ID, so a re-import updates instead of duplicating; new hosts
// whose name is taken are skipped or renamed; each `sshHostKeys` entry is trusted for the
// MagicDNS name and each Tailscale IP, and a key that differs from what the last import
// trusted is a rotation, recorded in the audit trail. A failure anywhere rolls back all.
//
// The plan for each device is made and applied before the next, so memory stays bounded by
// the devices themselves, not by everything the import writes.
import KeyFormats

public struct TailscaleImportOptions: Sendable {
    /// The SSH user for added hosts (and existing ones that have none).
    public var sshUser: String?
    /// A new host whose name is taken becomes name-2, name-3, ... instead of being skipped.
    public var renameClashes = false
    /// Trust `sshHostKeys` (off with --no-host-keys).
    public var trustHostKeys = true
    /// Import devices that are skipped by default (sharee nodes, exit nodes, ...).
    public var includeExcluded = false
    /// Plan only; write nothing.
    public var dryRun = false
    /// Most HMAC-SHA1 tests (~0.3 µs each) of imported names against hashed known_hosts
    /// entries; beyond it hashed entries are not compared and the report says so.
    public var hashedTestBudget = 3_000_000

    public init() {}
}

public struct TailscaleImporter {
    let connection: SQLiteConnection
    public static let source = "tailscale"

    init(connection: SQLiteConnection) { self.connection = connection }

    /// An importer writing into `database` (or planning against it, for a dry run).
    public init(database: HostDatabase) { self.connection = database.connection }

    /// A database in memory with the current schema, for a dry run when there is no
    /// database file yet (so planning creates nothing on disk).
    public static func emptyDatabase() throws -> HostDatabase { try HostDatabase.inMemory() }

    /// Imports `nodes` (already selected by the caller) and reports what happened. Each
    /// device is emptied once it is done with, so the caller should pass its only copy.
    /// `progress` is told (devices done, devices in all) after each device.
    public func run(format: TailscaleFormat, nodes: inout [TailscaleNode], options: TailscaleImportOptions,
                    progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> TailscaleImportReport {
        try connection.transaction(immediate: !options.dryRun) {
            var session = try Session(connection: connection, options: options, format: format)
            session.progress = progress
            try session.importAll(&nodes)
            return session.report
        }
    }
}

/// One import's state: what the database holds, and what this run has done so far.
private struct Session {
    /// A host from an earlier import, kept small: 100,000 of them are held at once.
    struct ExistingHost {
        let id: Int64
        let name: String
        let hasUser: Bool
        /// `StoredNode.signature` of what the last import wrote, with the host's hostname.
        let signature: UInt64
    }

    /// What an import writes about a device besides the hosts row.
    struct StoredNode {
        var dnsName: String
        var os: String
        var online: Bool?
        var lastSeen: String?
        var owner: String?
        var tags: [String]

        /// FNV-1a (64-bit) over the fields and `hostname`: equal signatures mean nothing to update.
        func signature(hostname: String) -> UInt64 {
            var h: UInt64 = 0xcbf29ce484222325
            func mix(_ s: String?) {
                guard let s else { h = (h ^ 0xfe) &* 0x100000001b3; return }
                for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
                h = (h ^ 0xff) &* 0x100000001b3
            }
            mix(hostname); mix(dnsName); mix(os); mix(online.map { $0 ? "1" : "0" }); mix(lastSeen); mix(owner)
            mix(tags.joined(separator: " "))
            return h
        }
    }

    let connection: SQLiteConnection
    let options: TailscaleImportOptions
    let now = StoreClock.timestamp()
    var report: TailscaleImportReport
    /// Lower-cased names of every host, including the ones added by this run.
    var takenNames: Set<String> = []
    /// For --rename-clashes: the next suffix to try for each lower-cased alias.
    var nextClashSuffix: [String: Int] = [:]
    var byNodeID: [String: ExistingHost] = [:]
    var seenNodeIDs: Set<String> = []
    /// Bulk mode: a large import into an empty known-hosts store drops the store's indexes
    /// and builds them once at the end, as the store's own import does (KnownHostsImport).
    /// Then the only entries a name can have are the ones this run wrote: `written`.
    var bulk = false
    var written: Set<String> = []
    /// known_hosts entries that are pattern lists or hashed names: a plain lookup cannot find
    /// them, so each name this import trusts keys for is matched against them (OpenSSH's
    /// rules, through the known-hosts store's row type). Usually none.
    var patternEntries: [KnownHostRow] = []
    var hashedEntries: [(row: KnownHostRow, name: HashedHostName)] = []
    /// Told (devices done, devices in all) after each device; the caller throttles drawing.
    var progress: ((Int, Int) -> Void)?

    // Prepared once, reused for every device.
    /// Hosts and tags are written through the host repository's bulk writer.
    let hostWriter: HostBulkWriter
    let upsertNode: Statement
    /// Every read and write of the trust tables goes through the known-hosts store.
    let knownHosts: KnownHostsStore.BulkWriter

    init(connection: SQLiteConnection, options: TailscaleImportOptions, format: TailscaleFormat) throws {
        self.connection = connection
        self.options = options
        self.report = TailscaleImportReport(format: format, dryRun: options.dryRun)
        // A dry run only reads, possibly a read-only database not migrated yet (no node table).
        let hasNodeTable = try TailscaleSchema.isPresent(connection)
        hostWriter = try HostBulkWriter(connection: connection)
        // Never run in a dry run; a placeholder there when the table does not exist yet.
        upsertNode = try connection.prepare(hasNodeTable ? """
            INSERT OR REPLACE INTO tailscale_nodes (host_id, node_id, dns_name, os, online, last_seen, owner, tags, imported_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """ : "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?")
        knownHosts = try KnownHostsStore.BulkWriter(connection: connection)
        // A bigger page cache for this connection keeps the indexes that grow in random order
        // (known_hosts by name, hosts by uuid and name) in memory instead of spilling them to
        // the WAL and reading them back: about 1 s less for 100,000 devices, at most 32 MB.
        try connection.execute("PRAGMA cache_size = -32768")
        try loadHosts(withNodeTable: hasNodeTable)
        if options.trustHostKeys { try loadSpecialEntries() }
    }

    private mutating func loadSpecialEntries() throws {
        for row in try knownHosts.specialEntries() {
            switch row.kind {
            case .patterns: patternEntries.append(row)
            case .hashed: if let name = HashedHostName(field: row.pattern) { hashedEntries.append((row, name)) }
            case .plain: break
            }
        }
    }

    private mutating func loadHosts(withNodeTable: Bool) throws {
        let hosts = try connection.prepare(withNodeTable ? """
            SELECT h.id, h.name, h.source, h.source_id, h.user IS NOT NULL, h.hostname,
                   t.host_id, t.dns_name, t.os, t.online, t.last_seen, t.owner, t.tags
            FROM hosts h LEFT JOIN tailscale_nodes t ON t.host_id = h.id
            """ : """
            SELECT id, name, source, source_id, user IS NOT NULL, hostname,
                   NULL, NULL, NULL, NULL, NULL, NULL, NULL
            FROM hosts
            """)
        while try hosts.step() {
            guard case .int(let id) = hosts.column(0), let name = text(hosts.column(1)) else { continue }
            takenNames.insert(name.lowercased())
            guard text(hosts.column(2)) == TailscaleImporter.source, let nodeID = text(hosts.column(3)), !nodeID.isEmpty else { continue }
            var signature: UInt64 = 0
            if case .int = hosts.column(6) {
                let online: Bool? = if case .int(let v) = hosts.column(9) { v != 0 } else { nil }
                let stored = StoredNode(dnsName: text(hosts.column(7)) ?? "", os: text(hosts.column(8)) ?? "", online: online,
                                        lastSeen: text(hosts.column(10)), owner: text(hosts.column(11)),
                                        tags: Self.splitTags(text(hosts.column(12)) ?? ""))
                signature = stored.signature(hostname: text(hosts.column(5)) ?? "")
            }
            byNodeID[nodeID] = ExistingHost(id: id, name: name, hasUser: hosts.column(4) == .int(1), signature: signature)
        }
    }

    /// The Tailscale tags the last import wrote for a host.
    private func storedTags(hostID: Int64) throws -> [String] {
        let rows = try connection.query("SELECT tags FROM tailscale_nodes WHERE host_id = ?", [.int(hostID)])
        return Self.splitTags(rows.first?.text(0) ?? "")
    }

    private func text(_ v: SQLValue) -> String? { if case .text(let s) = v { return s }; return nil }

    static func splitTags(_ s: String) -> [String] { s.split(separator: " ").map(String.init) }

    // MARK: Hosts

    /// From this many entries to write on, rebuilding the indexes beats maintaining them.
    static let bulkEntries = 10_000

    mutating func importAll(_ nodes: inout [TailscaleNode]) throws {
        let entriesToWrite = nodes.reduce(0) { $0 + $1.sshHostKeys.count * (1 + $1.addresses.count) }
        let namesToTest = nodes.reduce(0) { $0 + ($1.sshHostKeys.isEmpty ? 0 : 1 + $1.addresses.count) }
        if !hashedEntries.isEmpty, namesToTest * hashedEntries.count > options.hashedTestBudget {
            let entries = hashedEntries.count == 1 ? "1 hashed known_hosts entry was" : "\(hashedEntries.count) hashed known_hosts entries were"
            report.notes.append("\(entries) not compared with the \(namesToTest) imported names (too many to test); 'hostbook known-hosts check' still applies them")
            hashedEntries = []
        }
        if !options.dryRun, options.trustHostKeys, entriesToWrite >= Self.bulkEntries,
           try knownHosts.storeIsEmpty() {
            bulk = true
            try knownHosts.dropIndexes()
        }
        try importNodes(&nodes)
        try knownHosts.finish()
    }

    private mutating func importNodes(_ nodes: inout [TailscaleNode]) throws {
        // Two devices in one input with the same first label (two tailnets, a shared-in node)
        // both fall back to their full MagicDNS name (README, "Name collisions").
        var aliasCount: [String: Int] = [:]
        for node in nodes where node.exclusion == nil || options.includeExcluded {
            aliasCount[TailscaleHostMapping.alias(node), default: 0] += 1
        }
        report.hosts.reserveCapacity(nodes.count)
        for i in nodes.indices {
            let node = nodes[i]
            nodes[i] = TailscaleNode()
            let mapping = TailscaleHostMapping(node)
            let shared = (aliasCount[mapping.alias] ?? 0) > 1 && HostValidation.isName(mapping.fqdn)
            try importOne(node, mapping, alias: shared ? mapping.fqdn : mapping.alias)
            progress?(i + 1, nodes.count)
        }
    }

    private mutating func importOne(_ node: TailscaleNode, _ mapping: TailscaleHostMapping, alias: String) throws {
        // The reader already drops tags hostbook would refuse; devices may come from elsewhere.
        var node = node
        node.tags = TailscaleDocumentReader.validTags(node.tags)
        func skip(_ reason: String, name: String? = nil) {
            report.hosts.append(result(node, mapping, name: name ?? alias, action: .skipped, reason: reason))
        }
        if let exclusion = node.exclusion, !options.includeExcluded { return skip(exclusion.rawValue) }
        if mapping.address.isEmpty { return skip("no MagicDNS name or Tailscale IP") }
        if node.nodeID.isEmpty { return skip("no node ID") }
        guard seenNodeIDs.insert(node.nodeID).inserted else { return skip("the same node ID appears twice in the input") }

        let stored = StoredNode(dnsName: mapping.fqdn, os: node.os, online: node.online, lastSeen: node.lastSeen,
                                owner: node.owner, tags: node.tags)
        let hostName: String
        let action: TailscaleHostAction
        var remark: String?
        if let existing = byNodeID[node.nodeID] {
            hostName = existing.name
            let userChange = !existing.hasUser && options.sshUser != nil
            let changed = existing.signature != stored.signature(hostname: mapping.address) || userChange
            action = changed ? .updated : .unchanged
            if changed && !options.dryRun {
                try hostWriter.update(id: existing.id, hostname: mapping.address, user: options.sshUser,
                                      oldTags: try storedTags(hostID: existing.id), tags: node.tags, at: now)
                try saveNode(hostID: existing.id, node.nodeID, stored)
            }
        } else {
            var name = alias
            if takenNames.contains(name.lowercased()) {
                guard options.renameClashes else {
                    return skip("a host named '\(name)' already exists (not this Tailscale node); use --rename-clashes to import it under another name")
                }
                // Resumes where the last clash of this alias stopped: many devices with one
                // name cost one step each, not a scan from -2 every time.
                var n = nextClashSuffix[alias.lowercased()] ?? 2
                while takenNames.contains("\(alias)-\(n)".lowercased()) { n += 1 }
                nextClashSuffix[alias.lowercased()] = n + 1
                name = "\(alias)-\(n)"
                remark = "renamed: a host named '\(alias)' already exists"
            }
            guard HostValidation.isName(name) else { return skip("no usable host name ('\(name)' is not a valid host name)") }
            takenNames.insert(name.lowercased())
            hostName = name
            action = .added
            if !options.dryRun {
                let id = try hostWriter.add(name: name, hostname: mapping.address, user: options.sshUser,
                                            source: TailscaleImporter.source, sourceID: node.nodeID, tags: node.tags, at: now)
                try saveNode(hostID: id, node.nodeID, stored)
            }
        }
        var validKeys = 0
        if options.trustHostKeys {
            validKeys = try trustKeys(node, mapping, hostName: hostName)
        } else {
            validKeys = node.sshHostKeys.count
        }
        report.hosts.append(TailscaleHostResult(nodeID: node.nodeID, name: hostName, hostname: mapping.address, action: action,
                                                reason: remark, tags: node.tags, os: node.os, online: node.online,
                                                lastSeen: node.lastSeen, owner: node.owner, hostKeys: validKeys))
    }

    private func result(_ node: TailscaleNode, _ mapping: TailscaleHostMapping, name: String,
                        action: TailscaleHostAction, reason: String?) -> TailscaleHostResult {
        TailscaleHostResult(nodeID: node.nodeID, name: name, hostname: mapping.address, action: action, reason: reason,
                            tags: node.tags, os: node.os, online: node.online, lastSeen: node.lastSeen, owner: node.owner,
                            hostKeys: node.sshHostKeys.count)
    }

    private func saveNode(hostID: Int64, _ nodeID: String, _ s: StoredNode) throws {
        try run(upsertNode, [.int(hostID), .text(nodeID), .text(s.dnsName), .text(s.os),
                             s.online.map { .int($0 ? 1 : 0) } ?? .null, s.lastSeen.map { .text($0) } ?? .null,
                             s.owner.map { .text($0) } ?? .null, .text(s.tags.joined(separator: " ")), .text(now)])
    }

    private func run(_ statement: Statement, _ values: [SQLValue]) throws {
        statement.reset()
        try statement.bind(values)
        while try statement.step() {}
    }

    // MARK: Host keys

    /// Trusts each of the node's keys for each of its names; returns how many keys were valid.
    private mutating func trustKeys(_ node: TailscaleNode, _ mapping: TailscaleHostMapping, hostName: String) throws -> Int {
        var keys: [(key: PublicKey, fingerprint: String)] = []
        var seenBlobs: Set<[UInt8]> = []
        for line in node.sshHostKeys {
            do {
                let key = try Self.hostKey(line)
                if seenBlobs.insert(key.blob).inserted { keys.append((key, key.sha256Fingerprint)) }
            } catch {
                report.keyProblems.append(TailscaleKeyProblem(host: hostName, pattern: "", keyType: PrintableText.quoted(String(line.prefix(while: { $0 != " " }).prefix(64))),
                                                              fingerprint: "", reason: "not a valid SSH public key: \(PrintableText.quoted("\(error)"))"))
            }
        }
        guard !keys.isEmpty else { return 0 }
        var rotations: [TailscaleKeyRotation?] = Array(repeating: nil, count: keys.count)
        for pattern in mapping.patterns {
            // The one name validator: a name Tailscale reports is stored only if it is a
            // plain host name or address (never a pattern, list or control character).
            if let why = HostNameRule.problem(pattern) {
                report.keyProblems.append(TailscaleKeyProblem(host: PrintableText.quoted(hostName), pattern: PrintableText.quoted(pattern), keyType: "",
                                                              fingerprint: "", reason: "not a host name: \(why)"))
                continue
            }
            // In bulk mode a name this run has not written has no entries: no lookup needed.
            var entries = bulk && written.insert(pattern).inserted ? [] : try entries(for: pattern)
            entries += specialEntries(matching: pattern)
            for (k, (key, fingerprint)) in keys.enumerated() {
                switch TailscaleKeyPlanner.decide(key, entries) {
                case .alreadyTrusted:
                    continue
                case .revoked:
                    report.keyProblems.append(TailscaleKeyProblem(host: hostName, pattern: pattern, keyType: key.type,
                                                                  fingerprint: fingerprint, reason: "the key is revoked"))
                case .conflict(let source, let other):
                    report.keyProblems.append(TailscaleKeyProblem(
                        host: hostName, pattern: pattern, keyType: key.type, fingerprint: fingerprint,
                        reason: "another key (\(other)) is trusted from \(PrintableText.quoted(source)); decide with 'hostbook known-hosts approve --replace'"))
                case .new:
                    report.entriesTrusted += 1
                    if !options.dryRun {
                        try knownHosts.trust(pattern, port: 22, key: key, fingerprint: fingerprint, source: TailscaleImporter.source, at: now)
                    }
                case .rotated(let oldIDs, let oldFingerprint):
                    report.entriesTrusted += 1
                    if rotations[k] == nil {
                        rotations[k] = TailscaleKeyRotation(host: hostName, keyType: key.type, oldFingerprint: oldFingerprint, newFingerprint: fingerprint)
                    }
                    if !options.dryRun {
                        try knownHosts.trust(pattern, port: 22, key: key, fingerprint: fingerprint, replacing: oldIDs,
                                             oldFingerprint: oldFingerprint, source: TailscaleImporter.source, at: now)
                    }
                }
            }
        }
        report.rotations.append(contentsOf: rotations.compactMap { $0 })
        return keys.count
    }

    /// One `sshHostKeys` entry: exactly `"<type> <base64>"` (Tailscale trims the comment).
    /// Split on bytes, which is much faster than the general line parser on 100,000 devices;
    /// anything else goes to `PublicKeyLine.parse` for its precise error.
    static func hostKey(_ line: String) throws -> PublicKey {
        let bytes = line.utf8
        if let space = bytes.firstIndex(of: 0x20),
           let blob = Base64.decode(String(line[line.index(after: space)...])),
           let key = try? PublicKey(blob: blob),
           key.type.utf8.elementsEqual(bytes[..<space]) {
            return key
        }
        return try PublicKeyLine.parse(line).key
    }

    /// The pattern-list and hashed entries whose host field matches `pattern` (port 22).
    private func specialEntries(matching pattern: String) -> [KnownHostRow] {
        guard !patternEntries.isEmpty || !hashedEntries.isEmpty else { return [] }
        let lookup = HostLookupName(host: pattern)
        var out: [KnownHostRow] = []
        for row in patternEntries where row.matches(lookup) { out.append(row) }
        if !hashedEntries.isEmpty {
            let matcher = HashedNameMatcher(lookup: lookup.text)
            for (row, name) in hashedEntries where matcher.matches(name) { out.append(row) }
        }
        return out
    }

    private func entries(for pattern: String) throws -> [KnownHostRow] {
        try knownHosts.plainEntries(pattern, port: 22)
    }
}
