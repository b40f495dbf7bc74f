// `hostbook keys remove NAME [--yes]`: the database row first, then the vault item
// (CredentialStore.removeKey); a leftover vault item is reported for doctor.
import CommandLineKit
import HostStore
import Workflows

enum KeysRemove {
    static let spec = CommandSpec(
        ["keys", "remove"], changesHostsOrKeys: true,
        summary: "Remove a key and its private key from the vault",
        usage: "NAME [--yes]",
        discussion: "Asks for confirmation on a terminal; without one, --yes is required.",
        positionals: [.required("NAME", "The key", completes: SavedNames.keys)],
        options: [.flag(.yes, "Remove without asking")],
        run: run)

    static func run(_ inv: Invocation) throws {
        // A key that does not exist is reported without creating a database.
        _ = try KeysContext.existingKey(inv.workspace, named: inv.args.positional(0)!)
        let ctx = try KeysContext.open(inv.workspace)
        let key = try ctx.key(named: inv.args.positional(0)!)
        if !inv.args.flag(.yes) {
            try inv.requirePrompt(for: "confirmation to remove key '\(key.name)'", alternative: "--yes")
            guard try inv.confirm("Remove key '\(key.name)' (\(key.fingerprint)) and its private key?", alternative: "--yes") else {
                throw CLIError.failure("cancelled; key '\(key.name)' was not removed")
            }
        }
        guard let removed = try ctx.credentials.removeKey(named: key.name) else { throw KeysRefusal.keyNotFound(key.name) }
        if inv.json {
            inv.printJSON(.object([("name", .string(removed.name)), ("fingerprint", .string(removed.fingerprint)), ("removed", .bool(true))]))
        } else {
            inv.print("Removed key '\(removed.name)' (\(removed.fingerprint)).")
        }
    }
}
