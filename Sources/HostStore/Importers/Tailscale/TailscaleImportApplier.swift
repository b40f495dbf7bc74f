// Writes a Tailscale import's plan (TailscaleImportPlanner) inside the import's transaction:
// hosts, tags and node rows through the hosts module's bulk writer, host keys through the
// known-hosts store's. Nothing here decides; every step is the plan's.
import ImportFormats

struct TailscaleImportApplier {
    let hosts: HostBulkWriter
    let knownHosts: KnownHostsStore.BulkWriter
    let now: String
    /// The rows written for planned entries a later device may replace (`plannedID`).
    private var writtenIDs: [Int64: Int64] = [:]

    init(hosts: HostBulkWriter, knownHosts: KnownHostsStore.BulkWriter, now: String) {
        self.hosts = hosts
        self.knownHosts = knownHosts
        self.now = now
    }

    mutating func apply(_ device: TailscaleDevicePlan) throws {
        switch device.host {
        case .skip:
            return
        case .add(let row, let node):
            let id = try hosts.add(row, at: now)
            try hosts.saveTailscaleNode(hostID: id, nodeID: device.nodeID, node, at: now)
        case .update(let id, let hostname, let user, let oldTags, let node):
            try hosts.update(id: id, hostname: hostname, user: user, oldTags: oldTags, tags: node.tags, at: now)
            try hosts.saveTailscaleNode(hostID: id, nodeID: device.nodeID, node, at: now)
        case .leave:
            break
        }
        for step in device.keys {
            let id: Int64
            switch step.decision {
            case .alreadyTrusted, .revoked, .conflict:
                continue
            case .new:
                id = try knownHosts.trust(step.pattern, port: 22, key: step.key, fingerprint: step.fingerprint,
                                          source: TailscaleImporter.source, at: now)
            case .rotated(let oldIDs, let oldFingerprint):
                id = try knownHosts.trust(step.pattern, port: 22, key: step.key, fingerprint: step.fingerprint,
                                          replacing: oldIDs.compactMap { $0 < 0 ? writtenIDs[$0] : $0 },
                                          oldFingerprint: oldFingerprint, source: TailscaleImporter.source, at: now)
            }
            // The row just written, by the id the insert returned: looking it up by name
            // instead read every row once per entry while a bulk import has the name index
            // dropped (a 30,000-address device: 30,000 table scans).
            if let planned = step.plannedID { writtenIDs[planned] = id }
        }
    }
}
