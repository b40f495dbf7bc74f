// What `hostbook bundle export` writes: a bundle document made from the database.
import ImportFormats
import KeyFormats

/// What an export carries beyond its name and serial (`bundle export`'s options).
public struct BundleExportSelection: Sendable, Equatable {
    /// Only hosts with one of these tags (all hosts when empty), and the snippets with one
    /// (none when empty).
    public var tags: [String]
    /// Snippets chosen by name (`--snippet`): no snippet is published unless chosen.
    public var snippets: [String]
    /// Hosts are published without their user (`--no-user`): each subscriber's default
    /// applies. Without it, the hosts set so (`edit --bundle-user omit`) still are.
    public var omitUsers: Bool
    /// The hosts, snippets and host keys bundle NAME brought into this database are
    /// published again (a second maintainer, a trusted signer of NAME, republishes it with
    /// their change). Never those of another bundle.
    public var republish: Bool
    /// The certificate authority whose trust, user certificates and KRL the bundle carries
    /// (`--ca NAME`), or nil.
    public var certificateAuthority: String?
    /// The host patterns of its `@cert-authority` line (`--ca-scope`); empty: the bundle's
    /// own hosts' hostnames, names and aliases.
    public var authorityScope: [String]

    public init(tags: [String] = [], snippets: [String] = [], omitUsers: Bool = false, republish: Bool = false,
                certificateAuthority: String? = nil, authorityScope: [String] = []) {
        self.tags = tags
        self.snippets = snippets
        self.omitUsers = omitUsers
        self.republish = republish
        self.certificateAuthority = certificateAuthority
        self.authorityScope = authorityScope
    }
}

extension BundleStore {
    /// The bundle document of this database: hosts (all, or those with any of the tags, plus
    /// the jump hosts they need) that did not come from a bundle (or came from this one,
    /// when `selection.republish`), the snippets chosen by name (a name not found is
    /// `.notFound`) or with one of the tags, and the host keys of those hosts (their
    /// hostnames, names and aliases at their ports, as ssh consults them), `@cert-authority`
    /// and `@revoked` entries included,
    /// none that another bundle brought; only lines naming nothing but those hosts
    /// (TrustAuthority), so the import refuses none of them. Hosts name their key; never a
    /// password or key material; a host set to publish no user (BundleUserPublishing) has none.
    public func document(name: String, selection: BundleExportSelection = BundleExportSelection(), serial: UInt64) throws -> BundleDocument {
        try Self.requireName(name)
        let own = BundleName.source(name)
        func exported(_ source: String) -> Bool { !source.hasPrefix("bundle:") || (selection.republish && source == own) }
        return try database.read {
            let all = try database.hosts().filter { exported($0.source) }
            let userOmitted = try userOmittedHostIDs()
            var byName: [String: Host] = [:]
            for h in all { byName[h.name.lowercased()] = h }
            let wanted = Set(selection.tags.map { $0.lowercased() }.flatMap { [$0, "tag:" + $0] })
            var chosen: [String: Host] = [:]
            for h in all where wanted.isEmpty || h.tags.contains(where: { wanted.contains($0.lowercased()) }) {
                // With the jump hosts it needs, when they are exported too.
                var next: Host? = h
                var steps = 0
                while let host = next, steps < JumpChain.maxHosts, chosen[host.name.lowercased()] == nil {
                    chosen[host.name.lowercased()] = host
                    next = host.jump.flatMap { byName[$0.lowercased()] }
                    steps += 1
                }
            }
            let hosts = chosen.values.map {
                BundleHost(name: $0.name, hostname: $0.hostname, port: $0.port, user: selection.omitUsers || userOmitted.contains($0.id) ? nil : $0.user, tags: $0.tags,
                           aliases: $0.aliases, jump: $0.jump, note: $0.note, key: $0.key)
            }
            // Snippets: those named, those with one of the tags (none another bundle brought),
            // and on a republish those the bundle brought.
            var snippets: [String: BundleSnippet] = [:]
            if !selection.tags.isEmpty {
                let tags = Set(selection.tags.map { $0.lowercased() })
                for s in try database.snippets() where s.tags.contains(where: { tags.contains($0.lowercased()) }) {
                    if let from = try connection.query("SELECT bundle FROM bundle_snippets WHERE snippet_id = ?", [.int(s.id)]).first?.text(0),
                       !(selection.republish && from.lowercased() == name.lowercased()) { continue }
                    snippets[s.name.lowercased()] = BundleSnippet(name: s.name, command: s.command, description: s.description)
                }
            }
            for n in selection.snippets {
                guard let s = try database.findSnippet(n) ?? database.snippets().first(where: { $0.name.lowercased() == n.lowercased() }) else {
                    throw HostStoreError.notFound("no snippet named '\(n)'")
                }
                if let from = try connection.query("SELECT bundle FROM bundle_snippets WHERE snippet_id = ?", [.int(s.id)]).first?.text(0),
                   !(selection.republish && from.lowercased() == name.lowercased()) {
                    throw HostStoreError.rejected("snippet '\(s.name)' came from bundle '\(from)'; only that bundle's signers publish it")
                }
                snippets[s.name.lowercased()] = BundleSnippet(name: s.name, command: s.command, description: s.description)
            }
            if selection.republish {
                for row in try connection.query("SELECT s.name, s.command, s.description FROM snippets s JOIN bundle_snippets b ON b.snippet_id = s.id WHERE b.bundle = ?", [.text(name)]) {
                    guard let n = row.text(0), let c = row.text(1) else { continue }
                    snippets[n.lowercased()] = BundleSnippet(name: n, command: c, description: row.text(2))
                }
            }
            let store = KnownHostsStore(database: database)
            var rows: [Int64: KnownHostRow] = [:]
            for h in chosen.values {
                for n in Set([h.hostname, h.name] + h.aliases) {
                    guard HostNameRule.problem(n) == nil else { continue }
                    for r in try store.entries(consultedFor: HostLookupName(host: HostPatternList.lowercased(n), port: h.port)) { rows[r.id] = r }
                }
            }
            for r in try store.all() where r.marker != .none { rows[r.id] = r }
            // The names the bundle's hosts own (TrustAuthority's scope for a bundle), as a
            // database without these hosts' owners would check them.
            var authority = TrustAuthority(origin: .bundle(name), scope: .hosts(TrustAuthority.lookups(of: hosts.map { ($0.name, $0.hostname, $0.port, $0.aliases) })),
                                           claims: TrustClaims(), trustHeld: { _ in [] })
            var lines: Set<String> = []
            for r in rows.values where exported(r.source) {
                let line = KnownHostsStore.line(of: r)
                var matched: [HostLookupName] = []
                guard (try? KnownHostsEntry.parse(line)) != nil, let entries = try? KnownHostsStore.bundleEntries(of: line),
                      try authority.refusal(Self.targets(entries), matched: &matched) == nil else { continue }
                lines.insert(line)
            }
            var caExport = BundleAuthorityExport(certificates: [], revocationList: nil)
            if let ca = selection.certificateAuthority {
                caExport = try authorityExport(ca, scope: selection.authorityScope, hosts: hosts)
                if let line = caExport.line { lines.insert(line) }
            }
            return BundleDocument(name: name, serial: serial, hosts: hosts, snippets: snippets.values.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) },
                                  hostKeys: Array(lines), certificates: caExport.certificates, revocationList: caExport.revocationList)
        }
    }
}

/// What `--ca` adds to a bundle.
struct BundleAuthorityExport {
    /// The CA's `@cert-authority` line.
    var line: String?
    var certificates: [String]
    var revocationList: String?

    init(line: String? = nil, certificates: [String], revocationList: String?) {
        self.line = line
        self.certificates = certificates
        self.revocationList = revocationList
    }
}

extension BundleStore {
    /// The `@cert-authority` line of the CA called `name` for `scope` (each pattern as
    /// TrustAuthority.scopeProblem allows; empty: the hosts' hostnames, names and aliases at
    /// their ports), every unexpired user certificate it issued that its KRL does not
    /// revoke, and its KRL (dated by its last revocation, so an unchanged CA exports the
    /// same bytes). `.notFound` (CertificateAuthorityRefusal) for a CA this database lacks.
    func authorityExport(_ name: String, scope: [String], hosts: [BundleHost]) throws -> BundleAuthorityExport {
        for p in scope {
            if let problem = TrustAuthority.scopeProblem(p) { throw HostStoreError.rejected("--ca-scope '\(PrintableText.quoted(p))': \(problem)") }
        }
        let store = CertificateAuthorityStore(database: database)
        let ca = try store.existing(name)
        var patterns = Set(scope)
        if scope.isEmpty {
            let own = TrustAuthority.lookups(of: hosts.map { ($0.name, $0.hostname, $0.port, $0.aliases) })
            for lookup in own where HostNameRule.problem(lookup.host) == nil { patterns.insert(HostPatternList.lowercased(lookup.text)) }
        }
        guard !patterns.isEmpty else {
            throw HostStoreError.rejected("bundle --ca '\(ca.name)' has no host to scope the certificate authority to: give --ca-scope PATTERN")
        }
        let text = "@cert-authority " + patterns.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.joined(separator: ",") + " " + (try ca.publicKey).line()
        guard case .entry(let entry) = try KnownHostsLine.parse(text) else {
            throw HostStoreError.rejected("the @cert-authority line of '\(ca.name)' is not a known_hosts line")
        }
        let list = try store.revocationList(authority: ca.name, now: try store.lastRevocationTime(authority: ca.name))
        let bytes = list.encoded()
        guard bytes.count <= BundleText.maximumRevocationListBytes else {
            throw HostStoreError.rejected("the revocation list of '\(ca.name)' is \(bytes.count) bytes long; a bundle carries at most \(BundleText.maximumRevocationListBytes)")
        }
        let now = StoreClock.nowSeconds()
        let certificates = try store.issued(authority: ca.name).map(\.certificate).filter {
            $0.role == .user && now < $0.validBefore && list.revocation(of: $0.key, certificate: $0) == nil
        }
        return BundleAuthorityExport(line: entry.text, certificates: certificates.map(BundleText.line(of:)), revocationList: Base64.encode(bytes))
    }
}
