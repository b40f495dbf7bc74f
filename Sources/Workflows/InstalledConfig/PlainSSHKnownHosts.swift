// Host-key rotation through plain ssh (Sessions' KeptKnownHosts; docs/known-hosts.md,
// "Rotation through plain ssh"): when the ssh configuration is installed, the known_hosts
// files its blocks name are reconciled with the store —
//   * by `known-hosts lookup` (ssh's KnownHostsCommand) for the name ssh asks about, before
//     it answers: ssh runs it (phase ORDER) before it reads the file for the key check, so
//     ssh reads a file equal to the store, and the previous login's edits are taken first;
//   * before any other command when ssh edited a file (a read of the files alone), so that
//     `known-hosts list` shows what plain ssh learned;
//   * after any other command, for every file hostbook keeps, so that a key the command
//     removed, revoked or replaced is no longer in the file ssh reads.
// Each returns what was learned, for the executable to say as `hostbook ssh` says it (its
// KeptKnownHostsSync hook, which turns a failure into a warning). Only a command on the
// database the installed configuration names touches the files (another --db leaves them
// alone). The store is read through the workspace's handle, and written through its
// writable one.
import HostStore
import KeyFormats
import Sessions
import System

public struct PlainSSHKnownHosts {
    let workspace: Workspace

    public init(workspace: Workspace) { self.workspace = workspace }

    /// The files kept for the workspace's database; nil when the configuration is not installed.
    var files: KeptKnownHosts? {
        let installed = InstalledSSHConfig(workspace: workspace)
        guard installed.isInstalled else { return nil }
        return installed.layout.knownHosts.keptFor(database: ExecutablePath.absolute(workspace.databasePath))
    }

    /// For `known-hosts lookup`: the name ssh asks about, read through the lookup's own
    /// handle (`database`), so that ssh's KnownHostsCommand opens the database once.
    public func reconcile(_ lookup: HostLookupName, database: HostDatabase) throws -> [SSHHostKeyRotation.Learned] {
        guard let files else { return [] }
        return try run(database: database) { store, writable in
            [try files.reconcile(lookup, store: store, writableStore: writable, salt: Self.salt)]
        }
    }

    /// Before a command: only when ssh edited a file.
    public func reconcileEdits() throws -> [SSHHostKeyRotation.Learned] {
        guard let files, files.hasEdits() else { return [] }
        return try run { store, writable in try files.reconcileAll(store: store, writableStore: writable, salt: Self.salt) }
    }

    /// After a command: every file hostbook keeps.
    public func reconcileAll() throws -> [SSHHostKeyRotation.Learned] {
        guard let files, !files.lookups().isEmpty else { return [] }
        return try run { store, writable in try files.reconcileAll(store: store, writableStore: writable, salt: Self.salt) }
    }

    private static func salt() -> [UInt8] { RandomBytes.generate(HashedHostName.saltLength) }

    /// `database`: a handle the caller holds; nil: the workspace's, for reading (none: nothing to do).
    private func run(database: HostDatabase? = nil,
                     _ body: (KnownHostsStore, () throws -> KnownHostsStore) throws -> [KeptKnownHosts.Reconciled]) throws -> [SSHHostKeyRotation.Learned] {
        guard let db = try database ?? workspace.existingDatabase() else { return [] }
        let reconciled = try body(KnownHostsStore(database: db)) { KnownHostsStore(database: try workspace.database()) }
        return reconciled.compactMap { one in
            one.outcome.map { SSHHostKeyRotation.Learned(alias: one.lookup.host, lookup: one.lookup, outcome: $0) }
        }
    }
}
