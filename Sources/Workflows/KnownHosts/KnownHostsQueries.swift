// The known-hosts commands' reads and plain writes over the workspace's database: a check
// (read-only, nothing created), the entries and events that apply to HOST, and the export.
import HostStore
import KeyFormats

public enum KnownHostsQueries {
    /// OpenSSH's decision for `presented` at `lookup` (HostKeyPolicy over the store); with
    /// no database, nothing is known.
    public static func check(_ lookup: HostLookupName, presented: PresentedHostKey, in workspace: Workspace) throws -> KnownHostsStore.Check {
        try workspace.existingDatabase().map { try KnownHostsStore(database: $0).check(lookup, presented: presented) }
            ?? KnownHostsStore.Check.nothingKnown(lookup)
    }

    /// Every entry (`host` nil), those ssh consults for `lookup` (a port was named), or the
    /// plain entries of `host` at any port and what matches it on 22.
    public static func entries(host: String?, lookup: HostLookupName?, in workspace: Workspace) throws -> [KnownHostRow] {
        guard let store = try workspace.existingDatabase().map(KnownHostsStore.init) else { return [] }
        guard let host else { return try store.all() }
        if let lookup { return try store.entries(consultedFor: lookup) }
        return try store.entries(forHost: host)
    }

    /// Every event (`host` nil), or those of its name (at its port when one was named).
    public static func events(for host: KnownHostName.Resolved?, in workspace: Workspace) throws -> [HostKeyEvent] {
        guard let store = try workspace.existingDatabase().map(KnownHostsStore.init) else { return [] }
        guard let host else { return try store.allEvents() }
        let events = try store.events(forHost: host.lookup.host)
        return host.portNamed ? events.filter { $0.port == host.lookup.port } : events
    }

    /// The trusted keys as a known_hosts file, each plain name hashed when `hashed`.
    public static func export(hashed: Bool, in workspace: Workspace) throws -> String {
        try workspace.existingDatabase().map {
            try KnownHostsStore(database: $0).exportKnownHosts(hashed: hashed) { RandomBytes.generate(HashedHostName.saltLength) }
        } ?? ""
    }

}
