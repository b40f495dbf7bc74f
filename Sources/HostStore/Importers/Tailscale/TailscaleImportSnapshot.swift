// What a Tailscale import plans against: the saved hosts (by node ID for the ones an earlier
// import wrote, and every name that is taken) and the known_hosts entries a plain lookup
// cannot find (pattern lists and hashed names). Read through the hosts module's bulk writer
// and the known-hosts store at the start of the import's transaction; the plain entries of
// each device's names are read as each device is planned (TailscaleImportPlanner.namesToLookUp).
import ImportFormats

struct TailscaleImportSnapshot {
    /// A host from an earlier import, kept small: 100,000 of them are held at once.
    struct ExistingHost: Equatable {
        let id: Int64
        let name: String
        let hasUser: Bool
        /// `TailscaleNodeRow.signature` of what the last import wrote, with the host's hostname.
        let signature: UInt64
        /// The Tailscale tags the last import wrote (moved, not added to, on an update).
        let tags: [String]
    }

    /// Lower-cased names of every saved host.
    var takenNames: Set<String> = []
    var hostsByNodeID: [String: ExistingHost] = [:]
    /// Pattern-list and hashed known_hosts entries (usually none).
    var specialEntries: [KnownHostRow] = []
    /// True when the known-hosts store holds no entry at all: no name has entries to look up.
    var knownHostsEmpty = true
    /// The saved hosts of every other origin, for TrustAuthority (read when host keys are
    /// trusted).
    var claims = TrustClaims()

    init(takenNames: Set<String> = [], hostsByNodeID: [String: ExistingHost] = [:],
         specialEntries: [KnownHostRow] = [], knownHostsEmpty: Bool = true, claims: TrustClaims = TrustClaims()) {
        self.claims = claims
        self.takenNames = takenNames
        self.hostsByNodeID = hostsByNodeID
        self.specialEntries = specialEntries
        self.knownHostsEmpty = knownHostsEmpty
    }

    /// The snapshot of the database behind `hosts` and `knownHosts`.
    static func read(hosts: HostBulkWriter, knownHosts: KnownHostsStore.BulkWriter, trustHostKeys: Bool) throws -> Self {
        var snapshot = Self()
        try hosts.forEachHostForTailscale { host in
            snapshot.takenNames.insert(host.name.lowercased())
            if trustHostKeys && host.source != TailscaleImporter.source {
                snapshot.claims.add(name: host.name, hostname: host.hostname, port: host.port, source: host.source)
            }
            guard host.source == TailscaleImporter.source, let nodeID = host.sourceID, !nodeID.isEmpty else { return }
            snapshot.hostsByNodeID[nodeID] = ExistingHost(id: host.id, name: host.name, hasUser: host.hasUser,
                                                          signature: host.node?.signature(hostname: host.hostname) ?? 0,
                                                          tags: host.node?.tags ?? [])
        }
        for (_, alias) in try hosts.aliases() { snapshot.takenNames.insert(alias.lowercased()) }
        if trustHostKeys {
            snapshot.knownHostsEmpty = try knownHosts.storeIsEmpty()
            if !snapshot.knownHostsEmpty { snapshot.specialEntries = try knownHosts.specialEntries() }
        }
        return snapshot
    }
}
