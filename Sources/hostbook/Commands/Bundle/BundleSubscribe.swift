// `hostbook bundle subscribe NAME GIT-URL-OR-PATH`: clones the bundle's repository with the
// system git beside the database, verifies and applies it, and records the subscription
// (BundleSubscriber).
import HostStore
import Sessions

enum BundleSubscribe {
    static let spec = CommandSpec(
        ["bundle", "subscribe"], changesHostsOrKeys: true,
        summary: "Clone a bundle's git repository, verify it and apply it",
        usage: "NAME GIT-URL-OR-PATH",
        discussion: """
            Clones with the system git (no password prompt) into the folder bundles/NAME beside the \
            database ($XDG_DATA_HOME/hostbook/bundles/NAME by default), then checks and applies \
            bundle.txt as 'bundle import' does. Trust a signer of NAME first ('hostbook bundle trust'). \
            'hostbook bundle update' fetches it again.
            """,
        positionals: [.required("NAME", "The bundle's name (as inside bundle.txt)"),
                      .required("GIT-URL-OR-PATH", "What git clone takes: a URL or a path", completes: .files)],
        run: run)

    static func run(_ inv: Invocation) throws {
        let git = try BundleGit(environment: inv.environment)
        let subscriber = try BundleApplying.subscriber(inv, git: git)
        let outcome: BundleSubscriber.Outcome
        do {
            outcome = try subscriber.subscribe(name: inv.args.positional(0)!, url: inv.args.positional(1)!)
        } catch {
            throw BundleApplying.afterApply(error)
        }
        BundleUpdate.present(outcome, inv: inv, verb: "Subscribed to")
    }
}
