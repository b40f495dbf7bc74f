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
// What is learned is said on stderr as `hostbook ssh` says it; a failure is a warning and
// changes nothing in the command's outcome. Only a command on the database the installed
// configuration names touches the files (another --db leaves them alone).
#if canImport(Glibc)
import Glibc
#endif
import HostStore
import KeyFormats
import Sessions

enum KeptKnownHostsSync {
    static func files(_ inv: Invocation) -> KeptKnownHosts? {
        let installed = InstalledSSHConfig(inv)
        guard installed.isInstalled else { return nil }
        return installed.layout.knownHosts.keptFor(database: SSHPaths.absolute(inv.databasePath))
    }

    /// For `known-hosts lookup`: the name ssh asks about, read through the lookup's own
    /// handle (`database`), so that ssh's KnownHostsCommand opens the database once.
    static func reconcile(_ inv: Invocation, lookup: HostLookupName, database: HostDatabase) {
        guard let files = files(inv) else { return }
        run(inv, database: database) { store, writable in
            [try files.reconcile(lookup, store: store, writableStore: writable, salt: salt)]
        }
    }

    /// Before a command: only when ssh edited a file.
    static func before(_ spec: CommandSpec, _ inv: Invocation) {
        guard spec.words != SSHHostKeyLookup.spec.words, let files = files(inv), files.hasEdits() else { return }
        run(inv) { store, writable in try files.reconcileAll(store: store, writableStore: writable, salt: salt) }
    }

    /// After a command: every file hostbook keeps.
    static func after(_ spec: CommandSpec, _ inv: Invocation) {
        guard spec.words != SSHHostKeyLookup.spec.words, !inv.args.sharedFlag(.dryRun), let files = files(inv),
              !files.lookups().isEmpty else { return }
        run(inv) { store, writable in try files.reconcileAll(store: store, writableStore: writable, salt: salt) }
    }

    private static func salt() -> [UInt8] { RandomBytes.generate(HashedHostName.saltLength) }

    /// `database`: a handle the caller holds; nil: one opened for reading here.
    private static func run(_ inv: Invocation, database: HostDatabase? = nil,
                            _ body: (KnownHostsStore, () throws -> KnownHostsStore) throws -> [KeptKnownHosts.Reconciled]) {
        do {
            guard let db = try database ?? HostStoreAccess.openForReading(inv) else { return }
            let path = inv.databasePath
            let reconciled = try body(KnownHostsStore(database: db)) { KnownHostsStore(database: try HostDatabase.open(path: path)) }
            for one in reconciled {
                guard let outcome = one.outcome else { continue }
                SSHRotationReport.say(SSHHostKeyRotation.Learned(alias: one.lookup.host, lookup: one.lookup, outcome: outcome))
            }
        } catch let e as KeptKnownHosts.WriteFailure {
            inv.warn("could not keep the known_hosts file \(e.path) for plain ssh: \(e.reason); it is written again at the next command")
        } catch {
            inv.warn("could not keep the known_hosts files for plain ssh: \(String(describing: error))")
        }
    }
}
