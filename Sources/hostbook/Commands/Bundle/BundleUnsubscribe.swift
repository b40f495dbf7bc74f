// `hostbook bundle unsubscribe NAME [--keep-hosts]`: forgets the subscription and its clone;
// unless --keep-hosts, first removes the hosts, snippets and host keys the bundle brought
// (and the passwords stored for those hosts), nothing else (BundleSubscriber.unsubscribe).
import CommandLineKit
import HostStore
import Sessions
import Workflows

enum BundleUnsubscribe {
    static let spec = CommandSpec(
        ["bundle", "unsubscribe"], changesHostsOrKeys: true,
        summary: "Stop following a bundle and remove what it brought",
        usage: "NAME [--keep-hosts]",
        discussion: """
            Removes the hosts, snippets and host keys bundle NAME brought (and passwords you stored \
            for those hosts), then the subscription and its clone. Hosts of yours or of other \
            bundles are never touched; one of yours that jumps through a host of the bundle is \
            refused first (exit 5). With --keep-hosts what it brought stays, still marked as \
            bundle:NAME. The signers stay trusted ('bundle untrust' forgets them) and the serial \
            applied stays recorded, so an older bundle is refused if you subscribe again.
            """,
        positionals: [.required("NAME", "The subscribed bundle")],
        options: [.flag(.keepHosts, "Keep the hosts, snippets and host keys the bundle brought")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        guard try HostStoreAccess.openForReading(inv) != nil else {
            throw CLIError.notFound("no subscription to a bundle named '\(name)'", hint: "Run 'hostbook bundle list' to see the subscriptions.")
        }
        let git = try BundleGit(environment: inv.environment)
        let subscriber = try BundleApplying.subscriber(inv.workspace, git: git, agentSocket: nil)
        let outcome: BundleSubscriber.Unsubscribed
        do {
            outcome = try subscriber.unsubscribe(name: name, keepHosts: inv.args.flag(.keepHosts))
        } catch {
            throw BundleUpdate.afterApply(error)
        }
        let plan = outcome.removal
        if inv.json {
            inv.printJSON(.object([
                ("bundle", .string(outcome.name)),
                ("url", .string(outcome.url)),
                ("hosts_removed", .strings(plan?.hostsToRemove ?? [])),
                ("snippets_removed", .strings(plan?.snippetsToRemove ?? [])),
                ("host_keys_removed", .strings(plan?.hostKeysToRemove ?? [])),
                ("passwords_removed", .strings(plan?.removedPasswords.map(\.host) ?? [])),
            ]))
            return
        }
        inv.print("Unsubscribed from bundle '\(outcome.name)' (\(outcome.url)).")
        guard let plan else {
            if inv.args.flag(.keepHosts) { inv.print("  kept what it brought (source bundle:\(outcome.name))") }
            return
        }
        if !plan.hostsToRemove.isEmpty { inv.print("  hosts removed: \(plan.hostsToRemove.joined(separator: ", "))") }
        if !plan.snippetsToRemove.isEmpty { inv.print("  snippets removed: \(plan.snippetsToRemove.joined(separator: ", "))") }
        if !plan.hostKeysToRemove.isEmpty { inv.print("  host keys removed: \(plan.hostKeysToRemove.count)") }
        for p in plan.removedPasswords { inv.print("  password of '\(p.host)' removed") }
    }
}
