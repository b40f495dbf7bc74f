// `hostbook remove NAME [--yes]`: delete a host, then its password in the vault.
import CommandLineKit
import Credentials
import HostStore
import Workflows

enum HostRemove {
    static let spec = CommandSpec(
        ["remove"], changesHostsOrKeys: true, summary: "Remove a host and its stored password",
        discussion: "Asks first on a terminal; --yes skips the question (and is required without a terminal).",
        positionals: [.required("NAME", "The host to remove", completes: SavedNames.hosts)],
        options: [.flag(.yes, "Do not ask for confirmation")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        let existing = try HostEditing.existing(name, in: inv.workspace)
        try inv.confirmUnlessYes("Remove host '\(existing.name)' (\(HostOutput.target(existing)))?")
        let host = try inv.workspace.credentials().removeHost(name)
        if inv.json {
            inv.printJSON(.object([("name", .string(host.name)), ("removed", .bool(true))]))
        } else {
            inv.print("Removed host '\(host.name)'.")
        }
    }
}
