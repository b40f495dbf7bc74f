// `hostbook bundle subscribe NAME GIT-URL-OR-PATH`: clones the bundle's repository with the
// system git beside the database, verifies and applies it, and records the subscription
// (BundleSubscriber).
import CommandLineKit
import HostStore
import Sessions
import Workflows

enum BundleSubscribe {
    static let spec = CommandSpec(
        ["bundle", "subscribe"], changesHostsOrKeys: true,
        summary: "Clone a bundle's git repository, verify it and apply it",
        usage: "NAME GIT-URL-OR-PATH [--replace] [--socket PATH]",
        discussion: """
            Clones with the system git (no password prompt) into the folder bundles/NAME beside the \
            database ($XDG_DATA_HOME/hostbook/bundles/NAME by default), then checks and applies \
            bundle.txt as 'bundle import' does. Trust a signer of NAME first ('hostbook bundle trust'). \
            'hostbook bundle update' fetches it again. Over ssh, a repository on a saved host (or \
            one whose host key hostbook trusts) is reached with hostbook's host keys and agent \
            (--socket names it), asking for nothing; any other with your own ssh. --replace moves an existing subscription to \
            a new URL: the old clone goes, the new one is cloned and checked as for a new subscription \
            (its serial may not be lower than the one applied); if that fails the subscription keeps \
            its old URL.
            """,
        positionals: [.required("NAME", "The bundle's name (as inside bundle.txt)"),
                      .required("GIT-URL-OR-PATH", "What git clone takes: a URL or a path", completes: .files)],
        options: [.flag(.replace, "Move an existing subscription to this URL"), AgentCommands.socketOption],
        run: run)

    static func run(_ inv: Invocation) throws {
        let git = try BundleGit(environment: inv.environment)
        let subscriber = try BundleApplying.subscriber(inv.workspace, git: git, agentSocket: { try? AgentSocket.path(inv) })
        let outcome: BundleSubscriber.Outcome
        do {
            outcome = try subscriber.subscribe(name: inv.args.positional(0)!, url: inv.args.positional(1)!, replace: inv.args.flag(.replace))
        } catch {
            throw BundleUpdate.afterApply(error)
        }
        if let old = outcome.replacedURL, !inv.json { inv.print("Moved the subscription to bundle '\(outcome.name)' from \(old).") }
        BundleUpdate.present(outcome, inv: inv, verb: "Subscribed to")
    }
}
