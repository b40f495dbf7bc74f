// What applying a bundle changes, row by row: computed from the database as it is (inside
// apply's transaction, again), and turned into the public BundlePlan. The rules
// (docs/formats.md, "Team bundles"): a bundle's hosts have the source `bundle:NAME`, its
// snippets are listed in bundle_snippets, its host keys have the source `bundle:NAME`; a
// bundle adds, changes and removes only those, and never touches a host, snippet or key
// that another source made (a clash, or a changed host key, is reported instead).
import ImportFormats
import KeyFormats
import System

struct BundleDiff {
    var plan: BundlePlan
    /// Hosts to add, with the id of their key (nil: none, or no key by that name here).
    var addHosts: [(host: BundleHost, keyID: Int64?)] = []
    var updateHosts: [(old: Host, host: BundleHost, keyID: Int64?)] = []
    var removeHosts: [Host] = []
    var addSnippets: [BundleSnippet] = []
    var updateSnippets: [(id: Int64, snippet: BundleSnippet)] = []
    var removeSnippets: [Int64] = []
    var addEntries: [KnownHostsStore.BundleEntry] = []
    var removeEntries: [KnownHostRow] = []
    /// The bundle's hosts the plan keeps (added, updated or unchanged): the names its
    /// host-key lines may speak for.
    var keptHosts: [BundleHost] = []
    /// The bundle's hosts with a stored password that keep their address: the password
    /// goes when the plan changes their pinned host keys.
    var passwordHosts: [(old: Host, host: BundleHost)] = []
    /// The bundle's new value of fields the subscriber overrides (bundle_overrides).
    var overrideValues: [(hostID: Int64, field: BundleOverrideField, value: String?)] = []
    /// The bundle's certificates to attach to the subscriber's keys.
    var attachCertificates: [(key: StoredKey, certificate: Certificate)] = []
    /// The bundle's KRL (its bytes), stored for its source; nil: none.
    var revocationList: [UInt8]?
}

/// A host in the jump-chain walk of the state after apply.
private struct JumpNode {
    let name: String
    let jump: String?
}

extension BundleStore {
    /// The diff of `document` as bundle `name` against the database now. Reads only;
    /// runs inside the caller's read or write.
    /// `removing`: the bundle goes (unsubscribe): `document` is empty and no serial rule applies.
    func diff(_ document: BundleDocument, bundle name: String, removing: Bool = false) throws -> BundleDiff {
        try Self.requireName(name)
        guard document.name == name else {
            throw BundleRefusal(.nameMismatch(expected: name, found: document.name), bundle: name,
                                "the bundle is named '\(BundleText.escaped(document.name))', not '\(name)'",
                                hint: "Import it as '\(BundleText.escaped(document.name))', or check where it came from.")
        }
        let entries = try Self.validate(document)
        let digest = Self.digest(document)
        let previous = try applied(name)
        if let previous, !removing {
            if document.serial < previous.serial {
                throw BundleRefusal(.olderSerial(applied: previous.serial, offered: document.serial), bundle: name,
                                    "bundle '\(name)' has serial \(document.serial), lower than serial \(previous.serial) applied already: an old bundle replayed",
                                    hint: "Nothing was written. Ask the team for the current bundle.")
            }
            if document.serial == previous.serial && digest != previous.digest {
                throw BundleRefusal(.reusedSerial(serial: document.serial), bundle: name,
                                    "bundle '\(name)' has serial \(document.serial), which was applied already with other content",
                                    hint: "Nothing was written. A changed bundle must be exported with a higher serial.")
            }
        }
        var diff = BundleDiff(plan: BundlePlan(bundle: name, serial: document.serial, previousSerial: previous?.serial,
                                               digest: digest, document: document))
        diff.plan.removesBundle = removing
        try diffHosts(document, bundle: name, into: &diff)
        try diffSnippets(document, bundle: name, into: &diff)
        try diffHostKeys(document, entries: entries, bundle: name, into: &diff)
        try diffCertificates(document, entries: entries, bundle: name, into: &diff)
        return diff
    }

    /// Refuses a document whose content this database cannot hold (the rules of hosts,
    /// snippets and known_hosts lines, and names unique regardless of case); returns the
    /// entries of its host-key lines.
    static func validate(_ document: BundleDocument) throws -> [[KnownHostsStore.BundleEntry]] {
        let name = document.name
        func refuse(_ what: String, _ error: Error) -> BundleRefusal {
            let reason = (error as? HostStoreError)?.message ?? (error as? KeyFormatError)?.reason ?? "\(error)"
            return BundleRefusal(.invalidContent, bundle: name, "bundle '\(name)': \(what): \(reason)",
                                 hint: "Nothing was written. The bundle must be exported again without it.")
        }
        var names: Set<String> = []
        for h in document.hosts {
            let what = "host '\(BundleText.escaped(h.name))'"
            do {
                try HostDatabase.validate(NewHost(uuid: "", name: h.name, hostname: h.hostname, port: h.port, user: h.user, tags: h.tags,
                                                  key: h.key, jump: h.jump, note: h.note, aliases: h.aliases))
            } catch { throw refuse(what, error) }
            for n in [h.name] + h.aliases where !names.insert(n.lowercased()).inserted {
                throw refuse(what, HostStoreError.rejected("the name '\(n)' is used twice"))
            }
        }
        var snippetNames: Set<String> = []
        for s in document.snippets {
            let what = "snippet '\(BundleText.escaped(s.name))'"
            do {
                try HostValidation.name(s.name, what: "snippet name")
                _ = try SnippetRules.command(Array(s.command.utf8))
                if let d = s.description { try SnippetRules.description(d) }
            } catch { throw refuse(what, error) }
            if !snippetNames.insert(s.name.lowercased()).inserted {
                throw refuse(what, HostStoreError.rejected("the name is used twice"))
            }
        }
        guard document.hostKeys.count <= BundleText.maximumEntries else {
            throw refuse("host keys", HostStoreError.rejected("more than \(BundleText.maximumEntries) lines"))
        }
        guard document.certificates.count <= BundleText.maximumEntries else {
            throw refuse("certificates", HostStoreError.rejected("more than \(BundleText.maximumEntries) lines"))
        }
        for line in document.certificates {
            do { _ = try BundleText.certificate(line) } catch {
                throw refuse("certificate '\(BundleText.escaped(String(line.prefix(80))))'", error)
            }
        }
        if let krl = document.revocationList {
            do { _ = try BundleText.revocationList(krl) } catch { throw refuse("revocation list", error) }
        }
        return try document.hostKeys.map { line in
            do { return try KnownHostsStore.bundleEntries(of: line) } catch {
                throw refuse("host-key line '\(BundleText.escaped(String(line.prefix(80))))'", error)
            }
        }
    }

    // MARK: Hosts

    private func diffHosts(_ document: BundleDocument, bundle name: String, into diff: inout BundleDiff) throws {
        let source = BundleName.source(name)
        let own = try database.hosts(source: source).filter { $0.source == source }
        var ownByName: [String: Host] = [:]
        for h in own { ownByName[h.name.lowercased()] = h }
        // Names and aliases held by hosts of any other source.
        var taken: [String: String] = [:]
        for row in try connection.query("SELECT name, source FROM hosts WHERE source != ?1", [.text(source)]) {
            if let n = row.text(0) { taken[n.lowercased()] = row.text(1) ?? "manual" }
        }
        for row in try connection.query("SELECT a.alias, h.source FROM host_aliases a JOIN hosts h ON h.id = a.host_id WHERE h.source != ?1", [.text(source)]) {
            if let n = row.text(0) { taken[n.lowercased()] = row.text(1) ?? "manual" }
        }
        // Hostnames of hosts of any other source: a bundle host named like one would take
        // over `ssh NAME` through the installed config.
        var hostnames: Set<String> = []
        for row in try connection.query("SELECT hostname FROM hosts WHERE source != ?1", [.text(source)]) {
            if let n = row.text(0) { hostnames.insert(n.lowercased()) }
        }
        let localNames = self.localNames ?? LocalHostNames.current()
        var kept: [String: BundleHost] = [:]
        var candidates: [(host: BundleHost, keyID: Int64?)] = []
        for var h in document.hosts.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            if let owner = ([h.name] + h.aliases).lazy.compactMap({ taken[$0.lowercased()] }).first {
                diff.plan.clashes.append(.init(kind: .host, name: h.name, owner: owner))
                continue
            }
            if let reason = Self.nameRefusal(h, bundle: name, savedHostnames: hostnames, localNames: localNames) {
                diff.plan.refusedHosts.append(.init(h.name, reason: reason))
                continue
            }
            // The fields the subscriber set for themselves keep their value; the bundle's new
            // value of each is recorded (and reported when it changed).
            if let old = ownByName[h.name.lowercased()], !old.overrides.isEmpty {
                let stored = try database.overrideValues(hostID: old.id)
                for (field, bundleValue) in stored.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                    let offered = field.value(of: h)
                    if offered != bundleValue {
                        diff.overrideValues.append((old.id, field, offered))
                        // A key name this database lacks was applied as none: no news.
                        var unchanged = false
                        if field == .key, bundleValue == nil, let named = offered {
                            unchanged = try connection.query("SELECT id FROM keys WHERE name = ? COLLATE NOCASE", [.text(named)]).first == nil
                        }
                        if !unchanged {
                            diff.plan.overridesKept.append(.init(host: h.name, field: field.rawValue, bundleValue: offered, localValue: field.value(of: old)))
                        }
                    }
                    field.keep(old, in: &h)
                }
            }
            var keyID: Int64?
            if let key = h.key {
                keyID = try connection.query("SELECT id FROM keys WHERE name = ? COLLATE NOCASE", [.text(key)]).first?.int(0)
                if keyID == nil {
                    diff.plan.missingKeys.append(.init(host: h.name, key: key))
                    h.key = nil
                }
            }
            h.tags = Array(Set(h.tags)).sorted()
            h.aliases = Array(Set(h.aliases)).sorted()
            candidates.append((h, keyID))
            kept[h.name.lowercased()] = h
            for a in h.aliases { kept[a.lowercased()] = h }
        }
        // Jump hosts resolve within the bundle: a host whose jump host is another origin's,
        // or one of the bundle's that is not applied, is not applied either (until no more
        // changes: a chain through a refused host).
        let documentNames = Set(document.hosts.flatMap { [$0.name] + $0.aliases }.map { $0.lowercased() })
        var refusedByJump: Set<String> = []
        var changed = true
        while changed {
            changed = false
            for (h, _) in candidates where !refusedByJump.contains(h.name.lowercased()) {
                guard let jump = h.jump, kept[jump.lowercased()] == nil else { continue }
                let reason: String
                if let other = try database.findHost(jump), other.source != source {
                    let origin = TrustOrigin(source: other.source)
                    reason = "its jump host '\(BundleText.escaped(jump))' is not the bundle's: it is \(origin == .user ? "your host" : "a host from \(origin)")"
                } else if documentNames.contains(jump.lowercased()) {
                    reason = "its jump host '\(BundleText.escaped(jump))' is not applied"
                } else {
                    continue   // named nowhere: refused below with the whole bundle
                }
                refusedByJump.insert(h.name.lowercased())
                for n in [h.name] + h.aliases { kept[n.lowercased()] = nil }
                diff.plan.refusedHosts.append(.init(h.name, reason: reason))
                changed = true
            }
        }
        for (h, keyID) in candidates where !refusedByJump.contains(h.name.lowercased()) {
            diff.keptHosts.append(h)
            if let old = ownByName[h.name.lowercased()] {
                if !Self.same(old, h) {
                    diff.updateHosts.append((old, h, keyID))
                    diff.plan.hostsToUpdate.append(h)
                }
                if old.auth == .password {
                    if Self.addressChanged(old, h) {
                        diff.plan.removedPasswords.append(.init(host: h.name, uuid: old.uuid, addressChanged: true))
                    } else {
                        diff.passwordHosts.append((old, h))
                    }
                }
            } else {
                diff.addHosts.append((h, keyID))
                diff.plan.hostsToAdd.append(h)
            }
        }
        for old in own where kept[old.name.lowercased()]?.name.lowercased() != old.name.lowercased() {
            diff.removeHosts.append(old)
            diff.plan.hostsToRemove.append(old.name)
            if old.auth == .password { diff.plan.removedPasswords.append(.init(host: old.name, uuid: old.uuid)) }
        }
        // Hosts of other sources that jump through one the bundle removes.
        for old in diff.removeHosts {
            if let user = try connection.query("SELECT name FROM hosts WHERE jump_host_id = ? AND source != ? ORDER BY name", [.int(old.id), .text(source)]).first?.text(0) {
                throw HostStoreError.rejected("host '\(user)' jumps through '\(old.name)', which bundle '\(name)' no longer carries",
                                              remedy: .dropJump(host: user, nothingWritten: true))
            }
        }
        // Every jump host resolves after apply, within JumpChain's rules.
        let find: (String) throws -> JumpNode? = { jumpName in
            kept[jumpName.lowercased()].map { JumpNode(name: $0.name, jump: $0.jump) }
        }
        for h in document.hosts where h.jump != nil {
            guard let start = kept[h.name.lowercased()] else { continue }
            switch try JumpChain.walk(from: JumpNode(name: start.name, jump: start.jump), name: \.name, jump: \.jump, find: find) {
            case .chain: continue
            case .loop(let chain):
                throw BundleRefusal(.invalidContent, bundle: name, "bundle '\(name)': the jump hosts of '\(h.name)' make a loop: \((chain.map(\.name) + [chain.last?.jump ?? "?"]).joined(separator: " -> "))",
                                    hint: "Nothing was written.")
            case .tooLong:
                throw BundleRefusal(.invalidContent, bundle: name, "bundle '\(name)': \(JumpChain.tooLongMessage(h.name))", hint: "Nothing was written.")
            case .missing(let jump, let of):
                throw BundleRefusal(.invalidContent, bundle: name, "bundle '\(name)': the jump host '\(BundleText.escaped(jump))' of '\(of)' is not a host of the bundle",
                                    hint: "Nothing was written. A bundle's jump hosts must be its own hosts: ask for a bundle that carries '\(BundleText.escaped(jump))'.")
            }
        }
    }

    /// Why a bundle host may not take its name (nil: it may): a name or alias that is the
    /// hostname of a saved host the bundle did not bring, that looks like a DNS name (has a
    /// dot) but is not the host's own hostname, or that this machine resolves itself
    /// (TrustAuthority.nameRefusal: localhost, /etc/hosts, its own hostname).
    static func nameRefusal(_ h: BundleHost, bundle: String, savedHostnames: Set<String>, localNames: LocalHostNames) -> String? {
        for n in [h.name] + h.aliases {
            let lowered = n.lowercased()
            if savedHostnames.contains(lowered) { return "'\(n)' is the hostname of a saved host" }
            if lowered.contains(".") && lowered != h.hostname.lowercased() {
                return "'\(n)' looks like a DNS name but is not the host's hostname"
            }
            if let refusal = TrustAuthority.nameRefusal(n, origin: .bundle(bundle), localNames: localNames) { return refusal.reason }
        }
        return nil
    }

    /// True when the stored host already holds what the bundle says (tags, aliases, key and
    /// jump names compared as the database compares them).
    /// True when the bundle moves the host to another hostname, port or user: a password
    /// stored for the old address must not be answered to the new one.
    static func addressChanged(_ old: Host, _ h: BundleHost) -> Bool {
        old.hostname != h.hostname || old.port != h.port || old.user != h.user
    }

    static func same(_ old: Host, _ h: BundleHost) -> Bool {
        old.name == h.name && old.hostname == h.hostname && old.port == h.port && old.user == h.user && old.note == h.note
            && old.key?.lowercased() == h.key?.lowercased() && old.jump?.lowercased() == h.jump?.lowercased()
            && Set(old.tags) == Set(h.tags) && Set(old.aliases.map { $0.lowercased() }) == Set(h.aliases.map { $0.lowercased() })
            && old.aliases.count == h.aliases.count
    }

    // MARK: Snippets

    private func diffSnippets(_ document: BundleDocument, bundle name: String, into diff: inout BundleDiff) throws {
        let ownIDs = Set(try connection.query("SELECT snippet_id FROM bundle_snippets WHERE bundle = ?", [.text(name)]).compactMap { $0.int(0) })
        var keptIDs: Set<Int64> = []
        for s in document.snippets.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            guard let existing = try database.findSnippet(s.name) else {
                diff.addSnippets.append(s)
                diff.plan.snippetsToAdd.append(s)
                continue
            }
            guard ownIDs.contains(existing.id) else {
                let owner = try connection.query("SELECT bundle FROM bundle_snippets WHERE snippet_id = ?", [.int(existing.id)]).first?.text(0)
                diff.plan.clashes.append(.init(kind: .snippet, name: s.name, owner: owner.map(BundleName.source) ?? "manual"))
                continue
            }
            keptIDs.insert(existing.id)
            if existing.name != s.name || existing.command != s.command || existing.description != s.description {
                diff.updateSnippets.append((existing.id, s))
                diff.plan.snippetsToUpdate.append(s)
            }
        }
        for row in try connection.query("SELECT s.id, s.name FROM snippets s JOIN bundle_snippets b ON b.snippet_id = s.id WHERE b.bundle = ? ORDER BY s.name", [.text(name)]) {
            guard let id = row.int(0), !keptIDs.contains(id) else { continue }
            diff.removeSnippets.append(id)
            diff.plan.snippetsToRemove.append(row.text(1) ?? "")
        }
    }

    // MARK: Host keys

    private func diffHostKeys(_ document: BundleDocument, entries: [[KnownHostsStore.BundleEntry]], bundle name: String, into diff: inout BundleDiff) throws {
        let source = BundleName.source(name)
        let store = KnownHostsStore(database: database)
        let owned = try store.rows(source: source)
        var keptIDs: Set<Int64> = []
        // Only the hosts the plan keeps (not clashing, not refused) own names; TrustAuthority
        // decides every line.
        var authority = try authority(bundle: name, hosts: diff.keptHosts, store: store)
        let now = StoreClock.nowSeconds()
        var planned: Set<String> = []
        var whole: KnownHostsStore.WholeEntries?
        var changes: Set<BundlePlan.ChangedHostKey> = []
        for (line, lineEntries) in zip(document.hostKeys, entries) {
            var matched: [HostLookupName] = []
            var refusedReason: String?
            if let refusal = try authority.refusal(Self.targets(lineEntries), matched: &matched) {
                // A plain key where the user trusts one: the key decision below reports it
                // (CHANGED, or agreement) and writes nothing.
                guard case .trustedByAnotherOrigin = refusal.kind,
                      lineEntries.allSatisfy({ $0.marker == .none && $0.entry.certificate == nil }) else {
                    diff.plan.refusedHostKeys.append(.init(line, reason: refusal.reason))
                    continue
                }
                refusedReason = refusal.reason
            }
            var adds = false
            for e in lineEntries {
                let identity = "\(e.plain ? HostPatternList.lowercased(e.pattern) : e.pattern)\u{0}\(e.port)\u{0}\(e.marker.rawValue)\u{0}\(Base64.encode(e.entry.storedBlob))"
                if planned.contains(identity) { continue }
                let candidates = matched
                let verdict = try store.verdict(e, source: source, whole: &whole, candidates: { candidates }, now: now)
                switch verdict {
                case .stored(let id, let isOwned):
                    if isOwned && refusedReason == nil { keptIDs.insert(id) }
                case .trustedElsewhere:
                    continue
                case .add:
                    if let reason = refusedReason {
                        if diff.plan.refusedHostKeys.last?.what != line { diff.plan.refusedHostKeys.append(.init(line, reason: reason)) }
                        continue
                    }
                    planned.insert(identity)
                    diff.addEntries.append(e)
                    adds = true
                case .changed(let lookup, let trusted):
                    let change = BundlePlan.ChangedHostKey(host: lookup, line: line, offered: e.entry.key.sha256Fingerprint, trusted: trusted)
                    if changes.insert(change).inserted { diff.plan.changedHostKeys.append(change) }
                }
            }
            if adds {
                if lineEntries.first?.marker == .revoked { diff.plan.hostKeysToRevoke.append(line) } else { diff.plan.hostKeysToTrust.append(line) }
            }
        }
        var removed: Set<String> = []
        for row in owned where !keptIDs.contains(row.id) {
            diff.removeEntries.append(row)
            let line = KnownHostsStore.line(of: row)
            if removed.insert(line).inserted { diff.plan.hostKeysToRemove.append(line) }
        }
        // A host whose pinned keys change loses its password, as one whose address changes:
        // a password never follows a host to a key the bundle chose.
        for (old, h) in diff.passwordHosts {
            let lookup = HostLookupName(host: h.hostname, port: h.port)
            let before = Self.pins(owned.map { ($0.marker, KnownHostsStore.line(of: $0), $0.keyBlob) }, for: lookup)
            let after = Self.pins(owned.filter { keptIDs.contains($0.id) }.map { ($0.marker, KnownHostsStore.line(of: $0), $0.keyBlob) }
                                  + diff.addEntries.map { ($0.marker, $0.line, $0.entry.storedBlob) }, for: lookup)
            if before != after {
                diff.plan.removedPasswords.append(.init(host: h.name, uuid: old.uuid, keyChanged: true))
            }
        }
    }

    /// The pinned entries (marker and key) among `lines` that decide for `lookup`.
    private static func pins(_ lines: [(marker: KnownHostsLine.Marker, line: String, blob: [UInt8])], for lookup: HostLookupName) -> Set<String> {
        var out: Set<String> = []
        for l in lines {
            guard let entry = try? KnownHostsEntry.parse(l.line), entry.line.matches(lookup: lookup.text) else { continue }
            out.insert(l.marker.rawValue + " " + Base64.encode(l.blob))
        }
        return out
    }
}

extension BundleStore {
    // MARK: Certificates and the revocation list

    /// The bundle's user certificates that certify one of this database's keys (the
    /// latest-expiring one per key, signed by a key of one of the bundle's `@cert-authority`
    /// lines, unexpired, its signature verifying: KeyCertificates.check) are attached to it,
    /// unless the key has that certificate already, a later one of the same CA, or one of
    /// another CA (the user's, which stays); the others certify keys this database does not
    /// have and are ignored. The bundle's KRL replaces the one it brought before.
    fileprivate func diffCertificates(_ document: BundleDocument, entries: [[KnownHostsStore.BundleEntry]], bundle name: String,
                                      into diff: inout BundleDiff) throws {
        let source = BundleName.source(name)
        let offered = document.revocationList.flatMap { Base64.decode($0, requirePadding: true) }
        diff.revocationList = offered
        diff.plan.hasRevocationList = offered != nil
        diff.plan.revocationListChanged = try KnownHostsStore(database: database).revocationListBytes(source: source) != offered
        let authorities = Set(entries.joined().filter { $0.marker == .certAuthority }.map { $0.entry.key.blob })
        let keys = KeyStore(database: database)
        let attached = KeyCertificates(database: database)
        let now = StoreClock.nowSeconds()
        var best: [Int64: (key: StoredKey, certificate: Certificate)] = [:]
        for line in document.certificates {
            guard let certificate = try? BundleText.certificate(line) else { continue }
            guard let key = try keys.find(fingerprint: certificate.key.sha256Fingerprint), key.publicKeyBlob == certificate.key.blob else {
                diff.plan.certificatesIgnored += 1
                continue
            }
            func refuse(_ reason: BundlePlan.CertificateNotAttached.Reason) {
                diff.plan.certificatesNotAttached.append(.init(key: key.name, serial: certificate.serial, reason: reason))
            }
            guard authorities.contains(certificate.signatureKey.blob) else { refuse(.notTheBundlesAuthority); continue }
            guard now < certificate.validBefore else { refuse(.expired); continue }
            guard (try? KeyCertificates.check(certificate, for: key)) != nil else { refuse(.badSignature); continue }
            if let other = best[key.id]?.certificate,
               (other.validBefore, other.serial) >= (certificate.validBefore, certificate.serial) { continue }
            best[key.id] = (key, certificate)
        }
        for (key, certificate) in best.values.sorted(by: { $0.key.name.utf8.lexicographicallyPrecedes($1.key.name.utf8) }) {
            let current = try attached.certificate(of: key)
            if let current {
                if current.blob == certificate.blob || (current.signatureKey.blob == certificate.signatureKey.blob && current.validBefore > certificate.validBefore) {
                    continue
                }
                if current.signatureKey.blob != certificate.signatureKey.blob {
                    diff.plan.certificatesNotAttached.append(.init(key: key.name, serial: certificate.serial, reason: .otherAuthorityAttached))
                    continue
                }
            }
            diff.attachCertificates.append((key, certificate))
            diff.plan.certificatesToAttach.append(.init(key: key.name, serial: certificate.serial, keyID: certificate.keyID,
                                                        authority: certificate.signatureKey.sha256Fingerprint,
                                                        validBefore: certificate.validBefore, replaces: current != nil))
        }
    }
}
