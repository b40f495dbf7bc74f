// Reading and writing hosts, their tags and aliases. Every write is one transaction; names
// and aliases are compared without regard to case (the columns are COLLATE NOCASE), and a
// host is found by its name or any of its aliases.
import KeyFormats

extension HostDatabase {
    static let hostColumns = """
    SELECT h.id, h.uuid, h.name, h.hostname, h.port, h.user, h.auth, k.name, j.name, h.note,
           h.source, h.source_id, h.created_at, h.updated_at, h.allow_agent_forwarding
    FROM hosts h LEFT JOIN keys k ON k.id = h.key_id LEFT JOIN hosts j ON j.id = h.jump_host_id
    """

    // MARK: Reading

    /// How Tailscale spells a tag (`tag:prod`); `list --tag prod` finds it too.
    static let tailscaleTagPrefix = "tag:"

    /// Hosts ordered by name, optionally only those with every tag in `tags` and from `source`.
    public func hosts(tags: [String] = [], source: String? = nil) throws -> [Host] {
        try read {
            let (sql, binds) = HostDatabase.listQuery(tags: tags, source: source)
            let s = try connection.prepare(sql)
            try s.bind(binds)
            var list: [Host] = []
            var index: [Int64: Int] = [:]
            while try s.step() {
                let h = HostDatabase.host(from: s)
                index[h.id] = list.count
                list.append(h)
            }
            if list.isEmpty { return list }
            // Tags of all hosts in one pass (cheaper than one query per host).
            let t = try connection.prepare("SELECT host_id, tag FROM host_tags ORDER BY host_id, tag COLLATE NOCASE")
            while try t.step() {
                if let i = index[t.int(at: 0)!] { list[i].tags.append(t.text(at: 1) ?? "") }
            }
            for (id, aliases) in try aliasesByHost() {
                if let i = index[id] { list[i].aliases = aliases }
            }
            for (id, details) in try tailscaleDetailsByHost() {
                if let i = index[id] { list[i].tailscale = details }
            }
            for (id, values) in try overridesByHost() {
                if let i = index[id] { list[i].overrides = HostDatabase.overrides(of: list[i], values) }
            }
            return list
        }
    }

    /// The listing query: every host, or those with every tag in `tags` and from `source`.
    /// Tailscale's tags are stored as Tailscale spells them (`tag:prod`), so a filter matches
    /// a tag with or without that prefix: `prod` and `tag:prod` both find `tag:prod` and `prod`.
    static func listQuery(tags: [String], source: String?) -> (String, [SQLValue]) {
        var sql = HostDatabase.hostColumns
        var clauses: [String] = []
        var binds: [SQLValue] = []
        for t in tags {
            let bare = t.lowercased().hasPrefix(tailscaleTagPrefix) ? String(t.dropFirst(tailscaleTagPrefix.count)) : t
            clauses.append("h.id IN (SELECT host_id FROM host_tags WHERE tag = ? COLLATE NOCASE OR tag = ? COLLATE NOCASE)")
            binds.append(.text(bare))
            binds.append(.text(tailscaleTagPrefix + bare))
        }
        if let source {
            clauses.append("h.source = ? COLLATE NOCASE")
            binds.append(.text(source))
        }
        if !clauses.isEmpty { sql += " WHERE " + clauses.joined(separator: " AND ") }
        return (sql + " ORDER BY h.name COLLATE NOCASE", binds)
    }

    /// Every host's aliases, sorted, by host id.
    func aliasesByHost() throws -> [Int64: [String]] {
        var aliases: [Int64: [String]] = [:]
        let s = try connection.prepare(HostSQL.allAliases)
        while try s.step() { aliases[s.int(at: 0)!, default: []].append(s.text(at: 1) ?? "") }
        return aliases
    }

    /// The host called `name` (any case), or having it as an alias, or nil.
    public func host(named name: String) throws -> Host? {
        try read { try findHost(name) }
    }

    /// Like `host(named:)` but a missing host is a `.notFound` error.
    public func requireHost(_ name: String) throws -> Host {
        guard let h = try host(named: name) else { throw noHost(name) }
        return h
    }

    /// "No host named NAME", with the nearest saved name (NearestName) as a suggestion
    /// when one is close.
    public func noHost(_ name: String) -> HostStoreError {
        HostDatabase.noHost(name, suggestion: (try? nearestHostName(to: name)) ?? nil)
    }

    /// "No host named NAME" where there is no database to look in, or with `suggestion`.
    public static func noHost(_ name: String, suggestion: String? = nil) -> HostStoreError {
        .notFound("no host named '\(name)'", remedy: .listHosts(suggestion: suggestion))
    }

    /// The saved host name nearest to `name` (NearestName), or nil when none is close.
    public func nearestHostName(to name: String) throws -> String? {
        try read {
            let s = try connection.prepare("SELECT name FROM hosts ORDER BY name COLLATE NOCASE")
            var names: [String] = []
            while try s.step() { if let n = s.text(at: 0) { names.append(n) } }
            return NearestName.nearest(to: name, among: names)
        }
    }

    func findHost(_ name: String) throws -> Host? {
        let s = try connection.prepare(HostDatabase.hostColumns + " WHERE h.id = (\(HostSQL.hostIDNamed))")
        try s.bind([.text(name)])
        guard try s.step() else { return nil }
        var h = HostDatabase.host(from: s)
        let t = try connection.prepare("SELECT tag FROM host_tags WHERE host_id = ? ORDER BY tag COLLATE NOCASE")
        try t.bind([.int(h.id)])
        while try t.step() { h.tags.append(t.text(at: 0) ?? "") }
        let a = try connection.prepare(HostSQL.aliasesOfHost)
        try a.bind([.int(h.id)])
        while try a.step() { h.aliases.append(a.text(at: 0) ?? "") }
        h.tailscale = try tailscaleDetails(hostID: h.id)
        if h.source.hasPrefix("bundle:") { h.overrides = HostDatabase.overrides(of: h, try overrideValues(hostID: h.id)) }
        return h
    }

    static func host(from s: Statement) -> Host {
        Host(id: s.int(at: 0) ?? 0, uuid: s.text(at: 1) ?? "", name: s.text(at: 2) ?? "", hostname: s.text(at: 3) ?? "",
             port: Int(s.int(at: 4) ?? 22), user: s.text(at: 5), auth: HostAuth(rawValue: s.text(at: 6) ?? "") ?? .agent,
             key: s.text(at: 7), jump: s.text(at: 8), note: s.text(at: 9), tags: [], source: s.text(at: 10) ?? "manual",
             sourceID: s.text(at: 11), createdAt: s.text(at: 12) ?? "", updatedAt: s.text(at: 13) ?? "",
             allowAgentForwarding: (s.int(at: 14) ?? 0) != 0)
    }

    // MARK: Writing

    /// Validates and inserts `new` in one transaction. `beforeCommit` runs inside the
    /// transaction once the row is written but not yet visible (the executable stores the
    /// password in the vault there); if it throws, nothing is written.
    @discardableResult
    public func addHost(_ new: NewHost, beforeCommit: (Host) throws -> Void = { _ in }) throws -> Host {
        try HostDatabase.validate(new)
        return try write { () throws -> Host in
            if let existing = try findHost(new.name) {
                throw HostDatabase.nameTaken(new.name, by: existing, remedy: .renameOrEditHost(existing: existing.name))
            }
            for alias in new.aliases {
                if let existing = try findHost(alias) { throw HostDatabase.nameTaken(alias, by: existing, hint: "Choose another alias.") }
            }
            let keyID: Int64? = try new.key.map { try self.keyID(named: $0) }
            let jumpID: Int64? = try new.jump.map { try self.jumpHostID(named: $0) }
            let auth = HostAuth.derived(hasPassword: new.hasPassword, hasKey: keyID != nil)
            try connection.run(HostSQL.insertManual, [.text(new.uuid), .text(new.name), .text(new.hostname), .int(Int64(new.port)), new.user.map { .text($0) } ?? .null,
                      .text(auth.rawValue), keyID.map { .int($0) } ?? .null, jumpID.map { .int($0) } ?? .null,
                      new.note.map { .text($0) } ?? .null])
            let id = connection.lastInsertRowID
            try insertTags(HostDatabase.uniqueTags(new.tags), hostID: id)
            try insertAliases(new.aliases, hostID: id)
            guard let host = try findHost(new.name) else { throw noHost(new.name) }
            if host.jump != nil { try refuseBadJumpChains(through: host) }
            try beforeCommit(host)
            return host
        }
    }

    /// Applies `changes` to the host called `name` in one transaction; `beforeCommit` sees
    /// the host before and after (see `addHost`).
    @discardableResult
    public func editHost(_ name: String, _ changes: HostChanges,
                         beforeCommit: (_ old: Host, _ new: Host) throws -> Void = { _, _ in }) throws -> Host {
        try HostDatabase.validate(changes)
        return try write { () throws -> Host in
            guard let old = try findHost(name) else { throw noHost(name) }
            var newName = old.name
            if let rename = changes.rename {
                if let other = try findHost(rename), other.id != old.id {
                    throw HostDatabase.nameTaken(rename, by: other, hint: "Choose another name.")
                }
                // Renamed to one of its own aliases: the name takes its place.
                try connection.run(HostSQL.deleteAlias, [.int(old.id), .text(rename)])
                newName = rename
            }
            var keyID: Int64? = try connection.query("SELECT key_id FROM hosts WHERE id = ?", [.int(old.id)]).first?.int(0)
            switch changes.key {
            case .unchanged: break
            case .clear: keyID = nil
            case .set(let k): keyID = try self.keyID(named: k)
            }
            var jumpID: Int64? = try connection.query("SELECT jump_host_id FROM hosts WHERE id = ?", [.int(old.id)]).first?.int(0)
            switch changes.jump {
            case .unchanged: break
            case .clear: jumpID = nil
            case .set(let j):
                jumpID = try jumpHostID(named: j)
            }
            let hasPassword: Bool
            switch changes.password {
            case .unchanged: hasPassword = old.auth == .password
            case .set: hasPassword = true
            case .clear: hasPassword = false
            }
            var auth = HostAuth.derived(hasPassword: hasPassword, hasKey: keyID != nil)
            if old.auth == .none && changes.password == .unchanged && changes.key == .unchanged { auth = .none }
            try connection.run(HostSQL.edit, [.text(newName), .text(changes.hostname ?? old.hostname), .int(Int64(changes.port ?? old.port)),
                      (changes.clearUser ? nil : changes.user ?? old.user).map { .text($0) } ?? .null, .text(auth.rawValue),
                      keyID.map { .int($0) } ?? .null, jumpID.map { .int($0) } ?? .null,
                      (changes.note.map { $0.isEmpty ? nil : $0 } ?? old.note).map { .text($0) } ?? .null,
                      .int((changes.agentForwarding ?? old.allowAgentForwarding) ? 1 : 0), .int(old.id)])
            for alias in HostDatabase.uniqueTags(changes.removeAliases) {
                if try connection.run(HostSQL.deleteAlias, [.int(old.id), .text(alias)]) == 0 {
                    throw HostStoreError.rejected("host '\(old.name)' has no alias '\(alias)'",
                                                  hint: old.aliases.isEmpty ? "It has no aliases." : "Its aliases: \(old.aliases.joined(separator: ", ")).")
                }
            }
            for alias in HostDatabase.uniqueTags(changes.addAliases) {
                if alias.lowercased() == newName.lowercased() {
                    throw HostStoreError.rejected("'\(alias)' is the name of host '\(newName)' itself", hint: "Choose another alias.")
                }
                if let other = try findHost(alias) {
                    if other.id == old.id && old.aliases.contains(where: { $0.lowercased() == alias.lowercased() }) { continue }
                    throw HostDatabase.nameTaken(alias, by: other, hint: "Choose another alias.")
                }
                try connection.run(HostSQL.insertAlias, [.text(alias), .int(old.id)])
            }
            for t in HostDatabase.uniqueTags(changes.removeTags) {
                let removed = try connection.run(HostSQL.deleteTagAnyCase, [.int(old.id), .text(t)])
                // Removing a tag the host does not have is a mistake worth saying (a typo
                // would otherwise pass silently); the transaction rolls back with it.
                if removed == 0 {
                    throw HostStoreError.rejected("host '\(old.name)' has no tag '\(t)'",
                                                  hint: old.tags.isEmpty ? "It has no tags." : "Its tags: \(old.tags.joined(separator: ", ")).")
                }
            }
            let have = Set(try connection.query("SELECT tag FROM host_tags WHERE host_id = ?", [.int(old.id)]).compactMap { $0.text(0)?.lowercased() })
            try insertTags(HostDatabase.uniqueTags(changes.addTags).filter { !have.contains($0.lowercased()) }, hostID: old.id)
            try recordOverrides(old: old, new: try findHost(newName) ?? old)
            guard let new = try findHost(newName) else { throw noHost(newName) }
            if case .set = changes.jump { try refuseBadJumpChains(through: new) }
            try beforeCommit(old, new)
            return new
        }
    }

    /// Deletes the host called `name` (its tags go with it); returns what was deleted.
    /// A host that is another host's jump host is refused.
    @discardableResult
    public func removeHost(_ name: String) throws -> Host {
        try write { () throws -> Host in
            guard let host = try findHost(name) else { throw noHost(name) }
            let users = try connection.query("SELECT name FROM hosts WHERE jump_host_id = ? ORDER BY name COLLATE NOCASE", [.int(host.id)])
                .compactMap { $0.text(0) }
            if let first = users.first {
                let more = users.count > 1 ? " (and \(users.count - 1) more)" : ""
                throw HostStoreError.rejected("host '\(host.name)' is the jump host of '\(first)'\(more)",
                                              remedy: .dropJump(host: first, nothingWritten: false))
            }
            try connection.run(HostSQL.delete, [.int(host.id)])
            return host
        }
    }

    // MARK: Helpers

    /// The id of the key called `name` (keys are owned by `hostbook keys`; read-only here).
    func keyID(named name: String) throws -> Int64 {
        guard let row = try connection.query("SELECT id, uuid, name FROM keys WHERE name = ? COLLATE NOCASE", [.text(name)]).first,
              let id = row.int(0) else {
            throw HostStoreError.rejected("key '\(name)' does not exist",
                                          remedy: .importKey(name: name))
        }
        return id
    }

    func jumpHostID(named name: String) throws -> Int64 {
        guard let h = try findHost(name) else {
            throw HostStoreError.rejected("jump host '\(name)' does not exist",
                                          remedy: .addJumpHost(name: name))
        }
        return h.id
    }

    /// Refuses, once `host` is written with its jump host, a chain through it that loops
    /// or is longer than JumpChain.maxHosts: its own, and those of the hosts that jump
    /// through it (the transaction then rolls back).
    func refuseBadJumpChains(through host: Host) throws {
        switch try JumpChain.walk(from: host, find: findHost) {
        case .chain(let chain):
            // The deepest host jumping through this one (a loop among them would pass
            // through this host, and its own walk found none).
            let deepest = try connection.query(HostSQL.deepestJumpingThrough, [.int(host.id), .int(Int64(JumpChain.maxHosts))]).first
            if let name = deepest?.text(0), let depth = deepest?.int(1), chain.count + Int(depth) > JumpChain.maxHosts {
                throw HostStoreError.rejected(JumpChain.tooLongMessage(name), remedy: .shortenJumpChain)
            }
        case .loop(let chain):
            if chain.count == 1 { throw HostStoreError.rejected("host '\(host.name)' cannot be its own jump host") }
            let names = chain.map(\.name) + [chain.last!.jump ?? "?"]
            throw HostStoreError.rejected("jump host '\(chain[1].name)' would make a loop: \(names.joined(separator: " -> "))")
        case .tooLong:
            throw HostStoreError.rejected(JumpChain.tooLongMessage(host.name), remedy: .shortenJumpChain)
        case .missing(let jump, let of):
            throw HostStoreError.rejected("the jump host '\(jump)' of '\(of)' does not exist")
        }
    }

    /// The refusal of `name` for a host or alias: it is `other`'s name or one of its aliases.
    static func nameTaken(_ name: String, by other: Host, hint: String? = nil, remedy: HostStoreError.Remedy? = nil) -> HostStoreError {
        let message: String
        if other.name.lowercased() == name.lowercased() {
            message = "a host named '\(other.name)' already exists"
        } else {
            let alias = other.aliases.first { $0.lowercased() == name.lowercased() } ?? name
            message = "'\(alias)' is already an alias of host '\(other.name)'"
        }
        return HostStoreError(.rejected, message, hint: hint, remedy: remedy, sqliteCode: 0)
    }

    func insertAliases(_ aliases: [String], hostID: Int64) throws {
        for alias in HostDatabase.uniqueTags(aliases) { try connection.run(HostSQL.insertAlias, [.text(alias), .int(hostID)]) }
    }

    func insertTags(_ tags: [String], hostID: Int64) throws {
        guard !tags.isEmpty else { return }
        let s = try connection.prepare(HostSQL.insertTag)
        for t in tags {
            s.reset()
            try s.bind([.int(hostID), .text(t)])
            while try s.step() {}
        }
    }

    /// Tags in the order given, without repeats (regardless of case).
    static func uniqueTags(_ tags: [String]) -> [String] {
        var seen = Set<String>()
        return tags.filter { seen.insert($0.lowercased()).inserted }
    }

    /// Checks every field of `new` that can be checked without the database (the name's
    /// uniqueness, the key and the jump host are checked when it is written).
    public static func validate(_ new: NewHost) throws {
        try HostValidation.name(new.name)
        try HostValidation.hostname(new.hostname)
        try HostValidation.port(new.port)
        if let u = new.user { try HostValidation.user(u) }
        for t in new.tags { try HostValidation.tag(t) }
        if let k = new.key { try HostValidation.name(k, what: "key name") }
        if let j = new.jump {
            if j.lowercased() == new.name.lowercased() {
                throw HostStoreError.rejected("host '\(new.name)' cannot be its own jump host")
            }
            try HostValidation.name(j, what: "jump host name")
        }
        if let n = new.note { try HostValidation.note(n) }
        for a in new.aliases {
            try HostValidation.name(a, what: "alias")
            if a.lowercased() == new.name.lowercased() {
                throw HostStoreError.rejected("'\(a)' is the name of host '\(new.name)' itself", hint: "Choose another alias.")
            }
        }
    }

    /// Checks every field of `c` that can be checked without the database.
    public static func validate(_ c: HostChanges) throws {
        if let r = c.rename { try HostValidation.name(r) }
        if let h = c.hostname { try HostValidation.hostname(h) }
        if let p = c.port { try HostValidation.port(p) }
        if let u = c.user { try HostValidation.user(u) }
        if c.clearUser && c.user != nil { throw HostStoreError.rejected("a user and no user cannot both be given") }
        for t in c.addTags + c.removeTags { try HostValidation.tag(t) }
        if case .set(let k) = c.key { try HostValidation.name(k, what: "key name") }
        if case .set(let j) = c.jump { try HostValidation.name(j, what: "jump host name") }
        if let n = c.note { try HostValidation.note(n) }
        for a in c.addAliases + c.removeAliases { try HostValidation.name(a, what: "alias") }
        if let both = c.addAliases.first(where: { a in c.removeAliases.contains { $0.lowercased() == a.lowercased() } }) {
            throw HostStoreError.rejected("--alias \(both) and --no-alias \(both) cannot be used together")
        }
    }
}
