// When the known_hosts files plain ssh reads are reconciled with the store (Workflows'
// PlainSSHKnownHosts): in `known-hosts lookup`, before a command when ssh edited one, after
// every command. What is learned is said on stderr as `hostbook ssh` says it; a failure is a
// warning and changes nothing in the command's outcome.
import CommandLineKit
import HostStore
import KeyFormats
import Sessions
import Workflows

enum KeptKnownHostsSync {
    /// For `known-hosts lookup`: the name ssh asks about, read through the lookup's own
    /// handle (`database`), so that ssh's KnownHostsCommand opens the database once.
    static func reconcile(_ inv: Invocation, lookup: HostLookupName, database: HostDatabase) {
        say(inv) { try $0.reconcile(lookup, database: database) }
    }

    /// Before a command: only when ssh edited a file.
    static func before(_ spec: CommandSpec, _ inv: Invocation) {
        guard spec.words != SSHHostKeyLookup.spec.words else { return }
        say(inv) { try $0.reconcileEdits() }
    }

    /// After a command: every file hostbook keeps.
    static func after(_ spec: CommandSpec, _ inv: Invocation) {
        guard spec.words != SSHHostKeyLookup.spec.words, !inv.args.sharedFlag(.dryRun) else { return }
        say(inv) { try $0.reconcileAll() }
    }

    private static func say(_ inv: Invocation, _ body: (PlainSSHKnownHosts) throws -> [SSHHostKeyRotation.Learned]) {
        do {
            for learned in try body(PlainSSHKnownHosts(workspace: inv.workspace)) { SSHRotationReport.say(learned) }
        } catch let e as KeptKnownHosts.WriteFailure {
            inv.warn("could not keep the known_hosts file \(e.path) for plain ssh: \(e.reason); it is written again at the next command")
        } catch {
            inv.warn("could not keep the known_hosts files for plain ssh: \(String(describing: error))")
        }
    }
}
