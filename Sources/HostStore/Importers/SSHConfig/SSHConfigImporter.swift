// Plans and applies an ssh_config import in one transaction: every candidate (a concrete
// Host alias, as `ssh -G` resolves it) becomes a host with source `ssh-config` and the
// alias as source id, so a re-import updates instead of duplicating. IdentityFiles are
// linked to the imported key with the same public half; a one-hop ProxyJump naming a host
// of this import or a saved host becomes the jump host. Whatever cannot be kept is listed
// in the report for that host. A failure anywhere rolls back everything.

public struct SSHConfigImporter {
    public static let source = "ssh-config"
    let connection: SQLiteConnection

    init(connection: SQLiteConnection) { self.connection = connection }

    /// An importer writing into `database` (or planning against it, for a dry run).
    public init(database: HostDatabase) { self.connection = database.connection }

    /// Imports `candidates` (in the order the configuration names them). `notes` are
    /// carried into the report; `files` are the files read, so that hosts an earlier import
    /// took from them and that are gone now can be named (they are kept).
    public func run(_ candidates: [SSHConfigCandidate], dryRun: Bool, notes: [ImportNote] = [],
                    files: [String] = []) throws -> SSHConfigImportReport {
        try connection.transaction(immediate: !dryRun) {
            var plan = try SSHConfigImportPlan(connection: connection)
            plan.plan(candidates)
            var report = SSHConfigImportReport(dryRun: dryRun)
            report.notes = notes + plan.vanished(from: Set(files))
            if !dryRun { try plan.apply(connection) }
            report.hosts = plan.results()
            return report
        }
    }
}

/// The decisions of one import, made against what the database holds.
struct SSHConfigImportPlan {
    /// A saved host as the host tables' owner reads it for this import.
    typealias Existing = HostBulkWriter.SavedSSHConfigHost

    struct Planned {
        let candidate: SSHConfigCandidate
        /// The existing host's id, or a placeholder (-1 - index) for a host to add.
        var id: Int64
        var name: String
        var existing: Existing?
        var keyID: Int64?
        var keyName: String?
        var jumpID: Int64?
        var jumpName: String?
        var action: SSHConfigHostAction = .added
        var reason: String?
        var notImported: [ImportNote]
        /// The candidate's aliases this import can save (free, valid names).
        var aliases: [String] = []
    }

    let now = StoreClock.timestamp()
    var idByName: [String: Int64] = [:]
    var nameByID: [Int64: String] = [:]
    var jumpByID: [Int64: Int64] = [:]
    var userPortByID: [Int64: (user: String?, port: Int)] = [:]
    var byAlias: [String: Existing] = [:]
    /// Saved and planned host aliases (lower-cased) → their host's id.
    var aliasOwner: [String: Int64] = [:]
    /// The saved aliases of each host.
    var savedAliases: [Int64: Set<String>] = [:]
    /// The hosts this import plans, by alias (a host renamed since an earlier import is
    /// still reached by the name the configuration uses).
    var plannedByAlias: [String: Int64] = [:]
    var keyByFingerprint: [String: (id: Int64, name: String)] = [:]
    var keyNameByID: [Int64: String] = [:]
    var planned: [Planned] = []
    var skipped: [SSHConfigHostResult] = []
    /// Result order: the candidates' order (planned and skipped interleaved).
    var order: [(planned: Int?, skipped: Int?)] = []

    init(connection: SQLiteConnection) throws {
        for e in try HostBulkWriter(connection: connection).hostsForSSHConfig() {
            idByName[e.name.lowercased()] = e.id
            nameByID[e.id] = e.name
            if let j = e.jumpID { jumpByID[e.id] = j }
            userPortByID[e.id] = (e.user, e.port)
            if e.source == SSHConfigImporter.source, let alias = e.sourceID { byAlias[alias] = e }
        }
        for (id, alias) in try HostBulkWriter(connection: connection).aliases() {
            aliasOwner[alias.lowercased()] = id
            savedAliases[id, default: []].insert(alias.lowercased())
        }
        let keys = try connection.prepare("SELECT id, name, fingerprint FROM keys")
        while try keys.step() {
            guard let id = keys.int(at: 0), let name = keys.text(at: 1), let fp = keys.text(at: 2) else { continue }
            keyByFingerprint[fp] = (id, name)
            keyNameByID[id] = name
        }
    }

    mutating func plan(_ candidates: [SSHConfigCandidate]) {
        for c in candidates { planOne(c) }
        resolveJumps()
        refuseTooLongChains()
        decideActions()
    }

    private mutating func skip(_ c: SSHConfigCandidate, _ reason: String, remedy: ImportNote.Remedy? = nil) {
        order.append((nil, skipped.count))
        skipped.append(SSHConfigHostResult(alias: c.alias, name: c.alias, hostname: c.hostname, port: c.port, user: c.user,
                                           jump: nil, key: nil, action: .skipped, reason: reason, reasonRemedy: remedy, sourceFile: c.sourceFile,
                                           sourceLine: c.sourceLine, notImported: c.notImported))
    }

    private mutating func planOne(_ c: SSHConfigCandidate) {
        if let reason = c.skipReason { return skip(c, reason, remedy: c.skipRemedy) }
        let existing = byAlias[c.alias]
        if existing == nil {
            guard HostValidation.isName(c.alias) else {
                return skip(c, "'\(c.alias)' is not a valid hostbook host name (use 1 to 64 letters, digits, '.', '_' or '-')")
            }
            if let owner = aliasOwner[c.alias.lowercased()] {
                return skip(c, "'\(c.alias)' is an alias of host '\(nameByID[owner] ?? "?")'")
            }
            if let other = idByName[c.alias.lowercased()] {
                if other < 0 {
                    return skip(c, "the Host name '\(nameByID[other] ?? c.alias)' earlier in the configuration differs only in letter case (hostbook names ignore case)")
                }
                return skip(c, "a host named '\(nameByID[other] ?? c.alias)' already exists (not from this ssh_config)")
            }
        }
        do {
            try HostValidation.hostname(c.hostname)
            if let user = c.user { try HostValidation.user(user) }
        } catch let e as HostStoreError {
            return skip(c, e.message)
        } catch {
            return skip(c, "\(error)")
        }
        var p = Planned(candidate: c, id: existing?.id ?? Int64(-1 - planned.count), name: existing?.name ?? c.alias,
                        existing: existing, keyID: existing?.keyID, notImported: c.notImported)
        // The first IdentityFile whose public half is an imported key; the others are reported.
        var linked: String?
        for identity in c.identities {
            if let fp = identity.fingerprint, let key = keyByFingerprint[fp] {
                if linked == nil {
                    linked = key.name
                    p.keyID = key.id
                } else {
                    p.notImported.append("IdentityFile \(identity.path): hostbook keeps one key per host (using '\(linked!)')")
                }
            } else if let problem = identity.problem {
                p.notImported.append(ImportNote("IdentityFile \(identity.path): \(problem)", remedy: identity.remedy))
            } else {
                p.notImported.append(ImportNote("IdentityFile \(identity.path): no imported hostbook key has this public key",
                                                remedy: .importKeyThenImportAgain(path: identity.path)))
            }
        }
        p.keyName = p.keyID.flatMap { keyNameByID[$0] }
        if existing == nil {
            idByName[c.alias.lowercased()] = p.id
            nameByID[p.id] = p.name
        }
        for alias in c.aliases {
            let owner = aliasOwner[alias.lowercased()]
            if !HostValidation.isName(alias) {
                p.notImported.append("Host \(alias): not a valid hostbook alias (use 1 to 64 letters, digits, '.', '_' or '-')")
            } else if let other = idByName[alias.lowercased()], other != p.id {
                p.notImported.append("Host \(alias): not saved as an alias, a host named '\(nameByID[other] ?? alias)' exists")
            } else if let owner, owner != p.id {
                p.notImported.append("Host \(alias): not saved as an alias, it is an alias of host '\(nameByID[owner] ?? "?")'")
            } else {
                p.aliases.append(alias)
                aliasOwner[alias.lowercased()] = p.id
                plannedByAlias[alias] = p.id
            }
        }
        userPortByID[p.id] = (c.user, c.port)
        plannedByAlias[c.alias] = p.id
        order.append((planned.count, nil))
        planned.append(p)
    }

    /// The jump host of each planned host, refusing loops (the chain is followed through
    /// the jump hosts already decided and the saved ones).
    private mutating func resolveJumps() {
        for i in planned.indices {
            var p = planned[i]
            let keep = p.existing?.jumpID
            switch p.candidate.jump {
            case .none:
                jumpByID[p.id] = nil
                p.jumpID = nil
            case .unrepresentable(let text, let reason):
                p.notImported.append("ProxyJump \(text): \(reason)")
                p.jumpID = keep
            case .hop(let host, let user, let port, let text):
                guard let target = plannedByAlias[host] ?? idByName[host.lowercased()] else {
                    p.notImported.append("ProxyJump \(text): no saved or imported host is named '\(host)'; add it (or a Host block for it) and import again")
                    p.jumpID = keep
                    break
                }
                let saved = userPortByID[target]
                if let user, user != saved?.user {
                    p.notImported.append("ProxyJump \(text): the user differs from the saved host '\(nameByID[target] ?? host)'")
                    p.jumpID = keep
                    break
                }
                if let port, port != saved?.port {
                    p.notImported.append("ProxyJump \(text): the port differs from the saved host '\(nameByID[target] ?? host)'")
                    p.jumpID = keep
                    break
                }
                if let loop = loop(from: p.id, via: target) {
                    p.notImported.append("ProxyJump \(text): would make a loop of jump hosts (\(loop))")
                    p.jumpID = keep
                    break
                }
                p.jumpID = target
            }
            if let j = p.jumpID { jumpByID[p.id] = j } else { jumpByID[p.id] = nil }
            p.jumpName = p.jumpID.flatMap { nameByID[$0] }
            planned[i] = p
        }
    }

    /// Chains longer than JumpChain.maxHosts, walked with the same walk as `add`, `hostbook
    /// ssh` and the installed configuration (JumpChain), over the saved and planned hosts
    /// together: a jump host this import would set on a chain that grows too long is not
    /// kept (the host keeps the jump host it had, or none), first along the chain of the
    /// first host (in the configuration's order, then the saved hosts by name) whose chain
    /// is too long, until none is.
    private mutating func refuseTooLongChains() {
        guard planned.contains(where: { setsJump($0) }) else { return }
        let indexByID = Dictionary(planned.indices.map { (planned[$0].id, $0) }, uniquingKeysWith: { a, _ in a })
        let order = planned.map(\.id) + nameByID.keys.filter { indexByID[$0] == nil }
            .sorted { (nameByID[$0] ?? "").lowercased() < (nameByID[$1] ?? "").lowercased() }
        var cut = true
        while cut {
            cut = false
            for start in order {
                guard case .tooLong = walk(from: start) else { continue }
                // The first host along the chain whose jump host this import sets.
                var cursor: Int64? = start
                var steps = 0
                while let id = cursor, steps <= JumpChain.maxHosts {
                    if let i = indexByID[id], setsJump(planned[i]) {
                        let keep = planned[i].existing?.jumpID
                        if case .hop(_, _, _, let text) = planned[i].candidate.jump {
                            planned[i].notImported.append("ProxyJump \(text): \(JumpChain.tooLongMessage(nameByID[start] ?? "?"))")
                        }
                        planned[i].jumpID = keep
                        planned[i].jumpName = keep.flatMap { nameByID[$0] }
                        jumpByID[id] = keep
                        cut = true
                        break
                    }
                    cursor = jumpByID[id]
                    steps += 1
                }
                if cut { break }
            }
        }
    }

    /// Whether the import gives this host a jump host it does not have already.
    private func setsJump(_ p: Planned) -> Bool {
        p.jumpID != nil && p.jumpID != p.existing?.jumpID
    }

    /// JumpChain's walk from the host `start` over the jump hosts as planned.
    private func walk(from start: Int64) -> JumpChain.Walk<Int64> {
        JumpChain.walk(from: start, name: { String($0) }, jump: { jumpByID[$0].map { String($0) } }, find: { Int64($0) })
    }

    private func loop(from start: Int64, via target: Int64) -> String? {
        var chain = [nameByID[start] ?? "?"]
        var cursor: Int64? = target
        var steps = 0
        while let id = cursor, steps <= jumpByID.count {
            chain.append(nameByID[id] ?? "?")
            if id == start { return chain.joined(separator: " -> ") }
            cursor = jumpByID[id]
            steps += 1
        }
        return nil
    }

    private mutating func decideActions() {
        for i in planned.indices {
            let p = planned[i]
            guard let e = p.existing else { continue }
            let c = p.candidate
            let same = e.hostname == c.hostname && e.port == c.port && e.user == c.user && e.keyID == p.keyID
                && e.jumpID == p.jumpID && e.sourceFile == c.sourceFile && e.sourceLine == c.sourceLine
                && e.auth == auth(p) && newAliases(p).isEmpty
            planned[i].action = same ? .unchanged : .updated
        }
    }

    /// The planned aliases the host does not have yet (an import adds aliases, never
    /// removes one: `hostbook edit --no-alias` does).
    private func newAliases(_ p: Planned) -> [String] {
        let have = p.existing.map { savedAliases[$0.id] ?? [] } ?? []
        return p.aliases.filter { !have.contains($0.lowercased()) }
    }

    /// A stored password stays (auth `password`, or `none` set by another importer);
    /// otherwise `key` with a linked key, else `agent`.
    private func auth(_ p: Planned) -> String {
        if let old = p.existing?.auth, old == HostAuth.password.rawValue || old == HostAuth.none.rawValue { return old }
        return p.keyID != nil ? HostAuth.key.rawValue : HostAuth.agent.rawValue
    }

    /// Writes the plan through the hosts module's bulk writer (the only importer SQL over hosts).
    mutating func apply(_ connection: SQLiteConnection) throws {
        let hosts = HostBulkWriter(connection: connection)
        var realID: [Int64: Int64] = [:]
        for i in planned.indices where planned[i].action != .unchanged {
            let p = planned[i]
            let c = p.candidate
            if p.existing == nil {
                let id = try hosts.add(HostBulkWriter.NewRow(name: p.name, hostname: c.hostname, port: c.port, user: c.user,
                                                             auth: HostAuth(rawValue: auth(p)) ?? .agent, keyID: p.keyID, source: SSHConfigImporter.source,
                                                             sourceID: c.alias), at: now)
                realID[p.id] = id
                planned[i].id = id
            } else {
                try hosts.update(id: p.id, hostname: c.hostname, port: c.port, user: c.user, auth: auth(p), keyID: p.keyID, at: now)
            }
            try hosts.saveSSHConfigOrigin(hostID: planned[i].id, alias: c.alias, file: c.sourceFile, line: c.sourceLine, at: now)
            for alias in newAliases(p) { try hosts.addAlias(alias, hostID: planned[i].id) }
        }
        for p in planned where p.action != .unchanged && (p.jumpID != nil || p.existing?.jumpID != nil) {
            let jump = p.jumpID.map { realID[$0] ?? $0 }
            if p.existing == nil && jump == nil { continue }
            try hosts.setJump(id: p.id, jumpID: jump)
        }
    }

    /// Hosts an earlier import took from one of `files` whose alias this import did not see.
    func vanished(from files: Set<String>) -> [ImportNote] {
        let seen = Set(planned.map(\.candidate.alias) + skipped.map(\.alias))
        return byAlias.filter { !seen.contains($0.key) && $0.value.sourceFile.map(files.contains) == true }
            .sorted { $0.value.name.lowercased() < $1.value.name.lowercased() }
            .map { alias, e in
                ImportNote("host '\(e.name)' (Host \(alias), \(e.sourceFile ?? "?") line \(e.sourceLine ?? 0)) is no longer in the configuration; it was kept",
                           remedy: .removeHost(name: e.name))
            }
    }

    func results() -> [SSHConfigHostResult] {
        order.map { entry in
            if let s = entry.skipped { return skipped[s] }
            let p = planned[entry.planned!]
            let c = p.candidate
            return SSHConfigHostResult(alias: c.alias, name: p.name, hostname: c.hostname, port: c.port, user: c.user,
                                       jump: p.jumpName, key: p.keyName, action: p.action, reason: p.reason,
                                       sourceFile: c.sourceFile, sourceLine: c.sourceLine, notImported: p.notImported,
                                       aliases: p.aliases)
        }
    }
}
