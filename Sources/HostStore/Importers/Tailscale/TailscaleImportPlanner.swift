// The Tailscale import's decisions, made without touching the database: devices and the current
// rows (a TailscaleImportSnapshot, and the plain known_hosts entries of each device's names)
// in, a TailscaleDevicePlan per device out (docs/tailscale.md).
// Hosts are matched by node ID, so a re-import updates instead of duplicating; new
// hosts whose name is taken are skipped or renamed; each `sshHostKeys` entry is decided for the
// MagicDNS name and each Tailscale IP by HostKeyPolicy (through TailscaleKeyPlanner), the only
// owner of trust decisions.
//
// Whether the document may pin a key for a name at all is TrustAuthority's (origin
// Tailscale): only the tailnet's MagicDNS names and Tailscale's addresses, never one a host
// of another origin points at (each such name is reported instead); a device whose short
// name this machine resolves itself is skipped or renamed. A device is dialled at its MagicDNS name only when
// that name is the tailnet's, else at its Tailscale IP, else not imported.
//
// Devices are planned in order, each against the snapshot and what the plan already holds
// for earlier devices (taken names, node IDs seen, and the entries planned for names that
// more than one device gives), so the plan is the same whether or not it is written as it
// goes: the importer writes each device's plan before planning the next, keeping memory
// bounded by the devices, and a dry run writes nothing.
import ImportFormats
import KeyFormats
import System

struct TailscaleImportPlanner {
    let options: TailscaleImportOptions
    let tailnet: TailscaleTailnet
    /// Things the user should know that are not about one device.
    private(set) var notes: [ImportNote] = []

    private var takenNames: Set<String>
    /// Names this machine resolves itself: no imported host takes one (TrustAuthority).
    private let localNames: LocalHostNames
    /// The saved hosts of other origins, which TrustAuthority compares each name with.
    private let claims: TrustClaims
    private let hostsByNodeID: [String: TailscaleImportSnapshot.ExistingHost]
    private var seenNodeIDs: Set<String> = []
    /// For --rename-clashes: the next suffix to try for each lower-cased alias.
    private var nextClashSuffix: [String: Int] = [:]
    /// How many devices of the import have each alias (two tailnets, a shared-in node).
    private var aliasCount: [String: Int] = [:]
    /// known_hosts entries that are pattern lists or hashed names: each name is matched
    /// against them (OpenSSH's rules, through the known-hosts row type).
    private var patternEntries: [KnownHostRow] = []
    private var hashedEntries: [(row: KnownHostRow, name: HashedHostName)] = []
    /// Names that more than one device trusts keys for, and for those already planned, their
    /// entries as the plan leaves them: the store's, less the replaced, plus the planned.
    private var sharedNames: Set<String> = []
    private var held: [String: [KnownHostRow]] = [:]
    private var nextPlannedID: Int64 = -1
    /// Work done deciding host keys: entries read plus decisions made (TailscaleKeyPlanner),
    /// which a test counts to show it grows with the input, not with its square.
    private(set) var keyDecisionWork = 0

    init(snapshot: TailscaleImportSnapshot, options: TailscaleImportOptions, tailnet: TailscaleTailnet, nodes: [TailscaleNode]) {
        self.options = options
        self.tailnet = tailnet
        takenNames = snapshot.takenNames
        localNames = options.localNames ?? LocalHostNames.current()
        claims = snapshot.claims
        hostsByNodeID = snapshot.hostsByNodeID
        var namesToTest = 0
        var seen: Set<Int> = []
        for node in nodes where options.selection.decide(node) == .planned {
            aliasCount[TailscaleHostMapping.alias(node), default: 0] += 1
            guard options.trustHostKeys, !node.sshHostKeys.isEmpty else { continue }
            // A hash per name keeps this pass small; a collision only holds a name's
            // entries in memory that did not need to be.
            for name in TailscaleHostMapping.patternCandidates(node) where !seen.insert(name.hashValue).inserted { sharedNames.insert(name) }
        }
        for node in nodes where !node.sshHostKeys.isEmpty { namesToTest += 1 + node.addresses.count }
        guard options.trustHostKeys else { return }
        for row in snapshot.specialEntries {
            switch row.kind {
            case .patterns: patternEntries.append(row)
            case .hashed: if let name = HashedHostName(field: row.pattern) { hashedEntries.append((row, name)) }
            case .plain: break
            }
        }
        if !hashedEntries.isEmpty, namesToTest * hashedEntries.count > options.hashedTestBudget {
            let entries = hashedEntries.count == 1 ? "1 hashed known_hosts entry was" : "\(hashedEntries.count) hashed known_hosts entries were"
            notes.append(ImportNote("\(entries) not compared with the \(namesToTest) imported names (too many to test)",
                                    remedy: .knownHostsCheckStillApplies))
            hashedEntries = []
        }
    }

    /// Drops the devices `options.selection` leaves out, keeping the order: the rest are
    /// the import's (planned, or reported as skipped).
    static func keepConsidered(_ nodes: inout [TailscaleNode], options: TailscaleImportOptions) {
        nodes.removeAll { options.selection.decide($0) == .leftOut }
    }

    /// The whole plan for `nodes`, with `entries` the store's plain entries (port 22) for
    /// each name (lower-cased) that has any.
    static func plan(_ nodes: [TailscaleNode], snapshot: TailscaleImportSnapshot, entries: [String: [KnownHostRow]],
                     options: TailscaleImportOptions, tailnet: TailscaleTailnet) -> TailscaleImportPlan {
        var nodes = nodes
        keepConsidered(&nodes, options: options)
        var planner = TailscaleImportPlanner(snapshot: snapshot, options: options, tailnet: tailnet, nodes: nodes)
        var plan = TailscaleImportPlan(notes: planner.notes)
        for node in nodes {
            var current: [String: [KnownHostRow]] = [:]
            for name in planner.namesToLookUp(node) { current[name] = entries[name] ?? [] }
            plan.devices.append(planner.plan(node, entries: current))
        }
        return plan
    }

    /// The names of `node` whose plain known_hosts entries `plan` needs from the store (the
    /// planner holds the others).
    func namesToLookUp(_ node: TailscaleNode, mapping: TailscaleHostMapping? = nil) -> [String] {
        guard options.trustHostKeys, !node.sshHostKeys.isEmpty else { return [] }
        // Only the names TrustAuthority lets the tailnet speak for at all.
        let patterns = (mapping ?? TailscaleHostMapping(node)).patterns.filter { TrustAuthority.tailnetSpeaks(for: $0, tailnet) }
        return held.isEmpty ? patterns : patterns.filter { held[$0] == nil }
    }

    // MARK: Hosts

    /// The plan for one device; `entries` holds the store's plain entries (port 22) for each
    /// name `namesToLookUp(node)` gave. `mapping` is `TailscaleHostMapping(node)` when the
    /// caller has it already.
    mutating func plan(_ node: TailscaleNode, mapping: TailscaleHostMapping? = nil, entries: [String: [KnownHostRow]]) -> TailscaleDevicePlan {
        // Tailscale's tags that hostbook accepts as tags; the rest are dropped, not stored.
        var node = node
        node.tags = TailscaleDocumentReader.validTags(node.tags).filter { (try? HostValidation.tag($0)) != nil }
        let mapping = mapping ?? TailscaleHostMapping(node)
        let sharedAlias = (aliasCount[mapping.alias] ?? 0) > 1 && HostValidation.isName(mapping.fqdn)
        let alias = sharedAlias ? mapping.fqdn : mapping.alias
        func skip(_ reason: String) -> TailscaleDevicePlan {
            TailscaleDevicePlan(nodeID: node.nodeID, host: .skip, keys: [],
                                result: Self.result(node, mapping.address, name: alias, action: .skipped, reason: reason, hostKeys: node.sshHostKeys.count),
                                rotations: [], keyProblems: [])
        }
        switch options.selection.decide(node) {
        case .planned: break
        case .skipped(let exclusion): return skip(exclusion.rawValue)
        // Callers pass only considered devices (keepConsidered); one that is not is reported
        // as skipped rather than imported.
        case .leftOut: return skip("not selected")
        }
        if mapping.address.isEmpty { return skip("no MagicDNS name or Tailscale IP") }
        var remark: String?
        let address = dialAddress(mapping)
        if address.isEmpty {
            return skip(mapping.fqdn.isEmpty ? "no MagicDNS name or Tailscale IP"
                        : "'\(mapping.fqdn)' is not a MagicDNS name of the tailnet (\(tailnet.suffixDescription)) and it has no Tailscale IP")
        }
        if address != mapping.address, !mapping.fqdn.isEmpty {
            remark = "'\(mapping.fqdn)' is not a MagicDNS name of the tailnet: dialled at its Tailscale IP"
        }
        if node.nodeID.isEmpty { return skip("no node ID") }
        guard seenNodeIDs.insert(node.nodeID).inserted else { return skip("the same node ID appears twice in the input") }

        let row = TailscaleNodeRow(dnsName: mapping.fqdn, os: node.os, online: node.online, lastSeen: node.lastSeen,
                                   owner: node.owner, tags: node.tags)
        let hostName: String
        let step: TailscaleHostStep
        let action: TailscaleHostAction
        if let existing = hostsByNodeID[node.nodeID] {
            hostName = existing.name
            let userChange = !existing.hasUser && options.sshUser != nil
            if existing.signature != row.signature(hostname: address) || userChange {
                action = .updated
                step = .update(id: existing.id, hostname: address, user: options.sshUser, oldTags: existing.tags, node: row)
            } else {
                action = .unchanged
                step = .leave(id: existing.id)
            }
        } else {
            var name = alias
            if let refusal = TrustAuthority.nameRefusal(name, origin: .tailscale, localNames: localNames) {
                guard options.renameClashes else { return skip(refusal.reason + "; use --rename-clashes to import it under another name") }
                var n = nextClashSuffix[alias.lowercased()] ?? 2
                while takenNames.contains("\(alias)-\(n)".lowercased()) { n += 1 }
                nextClashSuffix[alias.lowercased()] = n + 1
                name = "\(alias)-\(n)"
                remark = ["renamed: \(refusal.reason)", remark].compactMap { $0 }.joined(separator: "; ")
            } else if takenNames.contains(name.lowercased()) {
                guard options.renameClashes else {
                    return skip("a host named '\(name)' already exists (not this Tailscale node); use --rename-clashes to import it under another name")
                }
                // Resumes where the last clash of this alias stopped: many devices with one
                // name cost one step each, not a scan from -2 every time.
                var n = nextClashSuffix[alias.lowercased()] ?? 2
                while takenNames.contains("\(alias)-\(n)".lowercased()) { n += 1 }
                nextClashSuffix[alias.lowercased()] = n + 1
                name = "\(alias)-\(n)"
                remark = ["renamed: a host named '\(alias)' already exists", remark].compactMap { $0 }.joined(separator: "; ")
            }
            guard HostValidation.isName(name) else { return skip("no usable host name ('\(name)' is not a valid host name)") }
            takenNames.insert(name.lowercased())
            hostName = name
            action = .added
            step = .add(HostBulkWriter.NewRow(name: name, hostname: address, user: options.sshUser,
                                              source: TailscaleImporter.source, sourceID: node.nodeID, tags: node.tags), node: row)
        }
        var keys = KeyPlan()
        if options.trustHostKeys {
            keys = planKeys(node, mapping, hostName: hostName, entries: entries)
        } else {
            keys.validKeys = node.sshHostKeys.count
        }
        let result = Self.result(node, address, name: hostName, action: action, reason: remark, hostKeys: keys.validKeys)
        return TailscaleDevicePlan(nodeID: node.nodeID, host: step, keys: keys.steps, result: result,
                                   rotations: keys.rotations, keyProblems: keys.problems)
    }

    /// What hostbook dials for the device: its MagicDNS name when that is the tailnet's,
    /// else its first Tailscale IPv4, else its first Tailscale IPv6; "" when it has none of
    /// these (an address outside Tailscale's ranges is not the tailnet's to give).
    private func dialAddress(_ mapping: TailscaleHostMapping) -> String {
        if !mapping.fqdn.isEmpty, tailnet.isMagicDNSName(mapping.fqdn) { return mapping.fqdn }
        let ips = mapping.patterns.filter { TailscaleHostMapping.isIPAddress($0) && TailscaleTailnet.isTailscaleAddress($0) }
        return ips.first { !$0.contains(":") } ?? ips.first ?? ""
    }

    private static func result(_ node: TailscaleNode, _ hostname: String, name: String,
                               action: TailscaleHostAction, reason: String?, hostKeys: Int) -> TailscaleHostResult {
        TailscaleHostResult(nodeID: node.nodeID, name: name, hostname: hostname, action: action, reason: reason,
                            tags: node.tags, os: node.os, online: node.online, lastSeen: node.lastSeen, owner: node.owner,
                            hostKeys: hostKeys)
    }

    // MARK: Host keys

    private struct KeyPlan {
        var steps: [TailscaleTrustStep] = []
        var rotations: [TailscaleKeyRotation] = []
        var problems: [TailscaleKeyProblem] = []
        var validKeys = 0
    }

    /// Each of the node's keys for each of its names.
    private mutating func planKeys(_ node: TailscaleNode, _ mapping: TailscaleHostMapping, hostName: String,
                                   entries: [String: [KnownHostRow]]) -> KeyPlan {
        var plan = KeyPlan()
        var keys: [(key: PublicKey, fingerprint: String)] = []
        var seenBlobs: Set<[UInt8]> = []
        for line in node.sshHostKeys {
            do {
                let key = try Self.hostKey(line)
                if seenBlobs.insert(key.blob).inserted { keys.append((key, key.sha256Fingerprint)) }
            } catch {
                plan.problems.append(TailscaleKeyProblem(host: hostName, pattern: "", keyType: PrintableText.quoted(String(line.prefix(while: { $0 != " " }).prefix(64))),
                                                         fingerprint: "", reason: "not a valid SSH public key: \(PrintableText.quoted("\(error)"))"))
            }
        }
        plan.validKeys = keys.count
        guard !keys.isEmpty else { return plan }
        var rotations: [TailscaleKeyRotation?] = Array(repeating: nil, count: keys.count)
        for pattern in mapping.patterns {
            // The known-hosts name validator (HostNameRule): a name Tailscale reports is stored
            // only if it is a plain host name or address (never a pattern, list or control
            // character).
            if let why = HostNameRule.problem(pattern) {
                plan.problems.append(TailscaleKeyProblem(host: PrintableText.quoted(hostName), pattern: PrintableText.quoted(pattern), keyType: "",
                                                         fingerprint: "", reason: "not a host name: \(why)"))
                continue
            }
            let shared = !sharedNames.isEmpty && sharedNames.contains(pattern)
            let plain = (shared ? held[pattern] : nil) ?? entries[pattern] ?? []
            // Every key is decided against the entries as they were before this device.
            let special = specialEntries(matching: pattern)
            let current = special.isEmpty ? plain : plain + special
            // Whether Tailscale may write trust for the name at all (TrustAuthority): the
            // tailnet's names only, never one a host of another origin points at. Where
            // another origin trusts a key, the decisions below report agreement or a
            // conflict, and a key that would be written is refused.
            var authority = TrustAuthority(origin: .tailscale, scope: .tailnet(tailnet), claims: claims, trustHeld: { _ in current })
            var writeRefusal: String?
            if let refusal = authority.refusalIgnoringErrors(HostLookupName(host: pattern)) {
                guard case .trustedByAnotherOrigin = refusal.kind else {
                    plan.problems.append(TailscaleKeyProblem(host: hostName, pattern: pattern, keyType: "", fingerprint: "", reason: refusal.reason))
                    continue
                }
                writeRefusal = refusal.reason
            }
            var replaced: Set<Int64> = []
            var replacedTypes: Set<String> = []
            var planned: [KnownHostRow] = []
            var decider = TailscaleKeyPlanner(current)
            for (k, (key, fingerprint)) in keys.enumerated() {
                var decision = decider.decide(key)
                switch decision {
                case .alreadyTrusted, .new:
                    break
                case .revoked:
                    plan.problems.append(TailscaleKeyProblem(host: hostName, pattern: pattern, keyType: key.type,
                                                             fingerprint: fingerprint, reason: "the key is revoked"))
                case .conflict(let source, let other):
                    plan.problems.append(TailscaleKeyProblem(
                        host: hostName, pattern: pattern, keyType: key.type, fingerprint: fingerprint,
                        reason: "another key (\(other)) is trusted from \(PrintableText.quoted(source))", remedy: .approveReplacing))
                case .rotated(let oldIDs, let oldFingerprint):
                    if rotations[k] == nil && writeRefusal == nil {
                        rotations[k] = TailscaleKeyRotation(host: hostName, keyType: key.type, oldFingerprint: oldFingerprint, newFingerprint: fingerprint)
                    }
                    // The first key of a type replaces that type's entries; a later key of the
                    // same type names none (they are gone by then), so many keys of one type
                    // cost one pass over those entries, not one per key.
                    if replacedTypes.insert(key.type).inserted {
                        replaced.formUnion(oldIDs)
                    } else {
                        decision = .rotated([], oldFingerprint)
                    }
                }
                var step = TailscaleTrustStep(pattern: pattern, key: key, fingerprint: fingerprint, decision: decision, plannedID: nil)
                if let writeRefusal, step.writes {
                    plan.problems.append(TailscaleKeyProblem(host: hostName, pattern: pattern, keyType: key.type, fingerprint: fingerprint, reason: writeRefusal))
                    continue
                }
                if shared && step.writes {
                    step = TailscaleTrustStep(pattern: pattern, key: key, fingerprint: fingerprint, decision: decision, plannedID: nextPlannedID)
                    planned.append(KnownHostRow(plannedID: nextPlannedID, pattern: pattern, key: key, fingerprint: fingerprint,
                                                source: TailscaleImporter.source))
                    nextPlannedID -= 1
                }
                plan.steps.append(step)
            }
            if shared { held[pattern] = plain.filter { !replaced.contains($0.id) } + planned }
            keyDecisionWork += decider.work
        }
        plan.rotations = rotations.compactMap { $0 }
        return plan
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
}

extension KnownHostRow {
    /// A plain entry at port 22 that a plan writes (`plannedID` negative) or that a test
    /// stands in for a stored one.
    init(plannedID: Int64, pattern: String, marker: KnownHostsLine.Marker = .none, key: PublicKey, fingerprint: String, source: String) {
        id = plannedID
        self.pattern = pattern
        port = HostLookupName.defaultPort
        self.marker = marker
        keyType = key.type
        keyBlob = key.blob
        self.fingerprint = fingerprint
        self.source = source
        firstSeen = ""
        approvedAt = nil
        comment = nil
    }
}
