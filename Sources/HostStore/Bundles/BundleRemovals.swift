// What publishing a bundle would take away from its subscribers: the hosts, snippets and
// host-key entries of the bundle published before (the trusted bundle in the export's
// folder, or what the bundle brought into this database) that the new document no longer
// carries. An export that removes anything needs the publisher's yes (`--allow-removals`).
// Host keys are compared entry by entry (name, port, marker, key), so a line written with
// several names and the same entries written one per line are the same.
import ImportFormats
import KeyFormats

public struct BundleRemovals: Sendable, Equatable {
    public var hosts: [String] = []
    public var snippets: [String] = []
    /// How many host-key entries (one name, port and key each) go.
    public var hostKeys: Int = 0

    public init(hosts: [String] = [], snippets: [String] = [], hostKeys: Int = 0) {
        self.hosts = hosts
        self.snippets = snippets
        self.hostKeys = hostKeys
    }

    public var isEmpty: Bool { hosts.isEmpty && snippets.isEmpty && hostKeys == 0 }
}

extension BundleStore {
    /// What `new` drops of `old` (the same bundle published before).
    public static func removals(from old: BundleDocument, to new: BundleDocument) -> BundleRemovals {
        let newHosts = Set(new.hosts.map { $0.name.lowercased() })
        let newSnippets = Set(new.snippets.map { $0.name.lowercased() })
        let newKeys = entryIdentities(new.hostKeys)
        return BundleRemovals(hosts: old.hosts.map(\.name).filter { !newHosts.contains($0.lowercased()) }.sorted(),
                              snippets: old.snippets.map(\.name).filter { !newSnippets.contains($0.lowercased()) }.sorted(),
                              hostKeys: entryIdentities(old.hostKeys).subtracting(newKeys).count)
    }

    /// The entries of `lines` as identities (lines that do not parse are left out).
    static func entryIdentities(_ lines: [String]) -> Set<String> {
        var out: Set<String> = []
        for line in lines {
            guard let entries = try? KnownHostsStore.bundleEntries(of: line) else { continue }
            for e in entries {
                out.insert("\(e.plain ? HostPatternList.lowercased(e.pattern) : e.pattern)\u{0}\(e.port)\u{0}\(e.marker.rawValue)\u{0}\(Base64.encode(e.entry.storedBlob))")
            }
        }
        return out
    }

    /// What bundle `bundle` brought into this database, as a document (hosts, snippets,
    /// host-key lines; serial the one applied), or nil when it was never applied here.
    public func broughtDocument(bundle: String) throws -> BundleDocument? {
        try database.read {
            guard let applied = try applied(bundle) else { return nil }
            let source = BundleName.source(bundle)
            let hosts = try database.hosts(source: source).filter { $0.source == source }.map {
                BundleHost(name: $0.name, hostname: $0.hostname, port: $0.port, user: $0.user, tags: $0.tags, aliases: $0.aliases,
                           jump: $0.jump, note: $0.note, key: $0.key)
            }
            let snippets = try connection.query("SELECT s.name, s.command, s.description FROM snippets s JOIN bundle_snippets b ON b.snippet_id = s.id WHERE b.bundle = ? ORDER BY s.name", [.text(bundle)]).compactMap { row -> BundleSnippet? in
                guard let n = row.text(0), let c = row.text(1) else { return nil }
                return BundleSnippet(name: n, command: c, description: row.text(2))
            }
            let lines = try KnownHostsStore(database: database).rows(source: source).map(KnownHostsStore.line(of:))
            return BundleDocument(name: bundle, serial: applied.serial, hosts: hosts, snippets: snippets, hostKeys: lines)
        }
    }
}
