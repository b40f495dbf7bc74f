// What `hostbook bundle export` writes: a bundle document made from the database.
import ImportFormats
import KeyFormats

extension BundleStore {
    /// The bundle document of this database: hosts (all, or those with any of `tags`, plus
    /// the jump hosts they need) that did not come from a bundle, every snippet that did not
    /// come from a bundle, and the host keys of those hosts (their hostnames, names and
    /// aliases at their ports, as ssh consults them), `@cert-authority` and `@revoked`
    /// entries included, none that a bundle brought; only lines naming nothing but those
    /// hosts (TrustAuthority), so the import refuses none of them. Hosts name their key; never a password
    /// or key material.
    public func document(name: String, tags: [String] = [], serial: UInt64) throws -> BundleDocument {
        try Self.requireName(name)
        return try database.read {
            let all = try database.hosts().filter { !$0.source.hasPrefix("bundle:") }
            var byName: [String: Host] = [:]
            for h in all { byName[h.name.lowercased()] = h }
            let wanted = Set(tags.map { $0.lowercased() }).flatMap { [$0, "tag:" + $0] }
            var chosen: [String: Host] = [:]
            for h in all where wanted.isEmpty || h.tags.contains(where: { Set(wanted).contains($0.lowercased()) }) {
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
                BundleHost(name: $0.name, hostname: $0.hostname, port: $0.port, user: $0.user, tags: $0.tags, aliases: $0.aliases,
                           jump: $0.jump, note: $0.note, key: $0.key)
            }
            let fromBundles = Set(try connection.query("SELECT snippet_id FROM bundle_snippets").compactMap { $0.int(0) })
            let snippets = try database.snippets().filter { !fromBundles.contains($0.id) }.map {
                BundleSnippet(name: $0.name, command: $0.command, description: $0.description)
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
            for r in rows.values where !r.source.hasPrefix("bundle:") {
                let line = KnownHostsStore.line(of: r)
                var matched: [HostLookupName] = []
                guard (try? KnownHostsEntry.parse(line)) != nil, let entries = try? KnownHostsStore.bundleEntries(of: line),
                      try authority.refusal(Self.targets(entries), matched: &matched) == nil else { continue }
                lines.insert(line)
            }
            return BundleDocument(name: name, serial: serial, hosts: hosts, snippets: snippets, hostKeys: Array(lines))
        }
    }
}
