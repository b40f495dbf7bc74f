// `hostbook bundle update [NAME]`: fetches each subscribed bundle (or the one named),
// verifies and applies it (BundleSubscriber). One bundle refused does not stop the others;
// the exit code is the first refusal's (and --json prints nothing then).
import CommandLineKit
import HostStore
import Sessions
import Workflows

enum BundleUpdate {
    static let spec = CommandSpec(
        ["bundle", "update"], changesHostsOrKeys: true,
        summary: "Fetch subscribed bundles with git, verify and apply them",
        usage: "[NAME] [--socket PATH]",
        discussion: """
            Without NAME every subscription, one after another. A bundle that is refused (see \
            'bundle import') changes nothing; the others are still applied, and the exit code is \
            that of the first refusal. git reaches a saved host (or one whose host key hostbook \
            trusts) with hostbook's host keys and agent, as 'bundle subscribe' does.
            """,
        positionals: [.optional("NAME", "The subscribed bundle (default: all)")],
        options: [AgentCommands.socketOption],
        run: run)

    static func run(_ inv: Invocation) throws {
        let git = try BundleGit(environment: inv.environment)
        let subscriber = try BundleApplying.subscriberIfSubscribed(inv.workspace, git: git, agentSocket: { try? AgentSocket.path(inv) })
        let subscriptions = try subscriber.subscriptions(named: inv.args.positional(0))
        if subscriptions.isEmpty, !inv.json {
            inv.print("No bundle is subscribed to. Subscribe with 'hostbook bundle subscribe NAME GIT-URL-OR-PATH'.")
            return
        }
        var results: [JSONValue] = []
        var firstFailure: ExitCode? = nil
        // Whether any bundle was written: then a failure still refreshes the installed ssh
        // configuration (FailedAfterChanges).
        var changed = false
        for subscription in subscriptions {
            do {
                let outcome = try subscriber.update(subscription)
                if !outcome.intake.plan.changesNothing { changed = true }
                if inv.json { results.append(json(outcome)) } else { present(outcome, inv: inv, verb: "Updated") }
            } catch {
                let error = afterApply(error)
                if error is FailedAfterChanges { changed = true }
                // A single bundle named: its error is the command's. Several: each reported, the rest go on.
                if subscriptions.count == 1 { throw error }
                let underlying = (error as? FailedAfterChanges)?.underlying ?? error
                let shown = underlying as? UserFacingError
                Hostbook.report(message: shown?.message ?? "unexpected error: \(underlying)", hint: shown?.hint, details: shown?.details ?? [])
                if firstFailure == nil { firstFailure = shown?.exitCode ?? .failure }
            }
        }
        // A failing command prints no JSON (docs/command-line.md, "JSON output").
        if let firstFailure {
            throw changed ? FailedAfterChanges(underlying: ExitStatus(code: firstFailure)) : ExitStatus(code: firstFailure)
        }
        if inv.json { inv.printJSON(.array(results)) }
    }

    /// `error`, as FailedAfterChanges when the bundle was applied before it
    /// (BundleApplying.failedAfterApply): the installed configuration is refreshed all the same.
    static func afterApply(_ error: any Error) -> any Error {
        BundleApplying.failedAfterApply(error).map { FailedAfterChanges(underlying: $0) } ?? error
    }

    static func json(_ outcome: BundleSubscriber.Outcome) -> JSONValue {
        .object(BundlePlanPresentation.fields(outcome.intake, applied: true)
            + [("url", .string(outcome.url)), ("revision", .string(outcome.revision)), ("folder", .string(outcome.folder))])
    }

    static func present(_ outcome: BundleSubscriber.Outcome, inv: Invocation, verb: TerminalText) {
        if inv.json {
            inv.printJSON(json(outcome))
            return
        }
        inv.print("\(verb) bundle '\(outcome.name)' from \(outcome.url) (commit \(String(outcome.revision.prefix(12)))).")
        BundlePlanPresentation.print(outcome.intake, dryRun: false, to: inv)
    }
}
