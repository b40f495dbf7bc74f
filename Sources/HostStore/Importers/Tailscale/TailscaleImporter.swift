// A Tailscale import in one transaction (docs/architecture.md, "Where each decision lives"):
// the current rows are read (TailscaleImportSnapshot), TailscaleImportPlanner decides what to
// do with each device, and TailscaleImportApplier writes the plan through the hosts module's
// bulk writer and the known-hosts store's. A dry run plans and writes nothing. A failure
// anywhere rolls back all.
//
// Each device is planned and written before the next, so memory stays bounded by the
// devices themselves, not by everything the import writes.
import ImportFormats
import KeyFormats
import System

public struct TailscaleImportOptions: Sendable {
    /// The SSH user for added hosts (and existing ones that have none).
    public var sshUser: String?
    /// A new host whose name is taken becomes name-2, name-3, ... instead of being skipped.
    public var renameClashes = false
    /// Trust `sshHostKeys` (off with --no-host-keys).
    public var trustHostKeys = true
    /// Which devices the import is about (--all, --only, --tag, --online, --include-skipped):
    /// TailscaleImportPlanner decides each device with it.
    public var selection = TailscaleSelection()
    /// Plan only; write nothing.
    public var dryRun = false
    /// Most HMAC-SHA1 tests (~0.3 µs each) of imported names against hashed known_hosts
    /// entries; beyond it hashed entries are not compared and the report says so.
    public var hashedTestBudget = 3_000_000
    /// The names this machine resolves itself, which no imported host may take
    /// (TrustAuthority.nameRefusal); nil: read from the machine (LocalHostNames.current).
    public var localNames: LocalHostNames?

    public init() {}
}

public struct TailscaleImporter {
    let connection: SQLiteConnection
    public static let source = "tailscale"

    init(connection: SQLiteConnection) { self.connection = connection }

    /// An importer writing into `database` (or planning against it, for a dry run).
    public init(database: HostDatabase) { self.connection = database.connection }

    /// From this many entries to write on, rebuilding the known-hosts indexes beats
    /// maintaining them.
    static let bulkEntries = 10_000

    /// Imports the devices of `nodes` that `options.selection` is about and reports what
    /// happened. Each device is emptied once it is done with, so the caller should pass its
    /// only copy.
    /// `progress` is told (devices done, devices in all) after each device.
    /// `tailnet` is the document's (`TailscaleDocument.tailnet`): keys are trusted only for
    /// its names and Tailscale addresses.
    public func run(format: TailscaleFormat, tailnet: TailscaleTailnet, nodes: inout [TailscaleNode], options: TailscaleImportOptions,
                    progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> TailscaleImportReport {
        TailscaleImportPlanner.keepConsidered(&nodes, options: options)
        return try connection.transaction(immediate: !options.dryRun) {
            let hosts = HostBulkWriter(connection: connection)
            let knownHosts = try KnownHostsStore.BulkWriter(connection: connection)
            let snapshot = try TailscaleImportSnapshot.read(hosts: hosts, knownHosts: knownHosts, trustHostKeys: options.trustHostKeys)
            var planner = TailscaleImportPlanner(snapshot: snapshot, options: options, tailnet: tailnet, nodes: nodes)
            var report = TailscaleImportReport(format: format, dryRun: options.dryRun)
            report.notes = planner.notes
            report.hosts.reserveCapacity(nodes.count)
            var applier: TailscaleImportApplier?
            if !options.dryRun {
                // A bigger page cache for this connection keeps the indexes that grow in random
                // order (known_hosts by name, hosts by uuid and name) in memory instead of
                // spilling them to the WAL and reading them back: about 1 s less for 100,000
                // devices, at most 32 MB.
                try connection.execute("PRAGMA cache_size = -32768")
                applier = TailscaleImportApplier(hosts: hosts, knownHosts: knownHosts, now: StoreClock.timestamp())
                // Bulk mode: a large import into an empty known-hosts store drops the store's
                // indexes and builds them once at the end, as the store's own import does.
                let entriesToWrite = nodes.reduce(0) { $0 + $1.sshHostKeys.count * (1 + $1.addresses.count) }
                if options.trustHostKeys, snapshot.knownHostsEmpty, entriesToWrite >= Self.bulkEntries {
                    try knownHosts.dropIndexes()
                }
            }
            for i in nodes.indices {
                let node = nodes[i]
                nodes[i] = TailscaleNode()
                let mapping = TailscaleHostMapping(node)
                // An empty store has no entries for any name: nothing to look up.
                var entries: [String: [KnownHostRow]] = [:]
                if !snapshot.knownHostsEmpty {
                    for name in planner.namesToLookUp(node, mapping: mapping) { entries[name] = try knownHosts.plainEntries(name, port: 22) }
                }
                let device = planner.plan(node, mapping: mapping, entries: entries)
                try applier?.apply(device)
                report.add(device)
                progress?(i + 1, nodes.count)
            }
            try knownHosts.finish()
            return report
        }
    }
}
