// `hostbook keys remove NAME [--yes]`: the database row first, then the vault item
// (docs/architecture.md, "Layers"); a leftover vault item is reported for doctor.
import HostStore
import Vault

enum KeysRemove {
    static let spec = CommandSpec(
        ["keys", "remove"], changesHostsOrKeys: true,
        summary: "Remove a key and its private key from the vault",
        usage: "NAME [--yes]",
        discussion: "Asks for confirmation on a terminal; without one, --yes is required.",
        positionals: [.required("NAME", "The key", completes: .keys)],
        options: [.flag("yes", "Remove without asking")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let ctx = try KeysContext.open(inv)
        let key = try ctx.key(named: inv.args.positional(0)!)
        if !inv.args.flag("yes") {
            try inv.requirePrompt(for: "confirmation to remove key '\(key.name)'", alternative: "--yes")
            guard try inv.confirm("Remove key '\(key.name)' (\(key.fingerprint)) and its private key?", alternative: "--yes") else {
                throw CLIError.failure("cancelled; key '\(key.name)' was not removed")
            }
        }
        let removed: StoredKey?
        do {
            removed = try ctx.store.remove(name: key.name)
        } catch let e as HostStoreError where e.kind != .database {
            throw e
        } catch {
            throw KeysFailure.database(error, "cannot remove key '\(key.name)'")
        }
        guard let removed else { throw KeysFailure.notFound(key.name) }
        do {
            try ctx.vault.delete(KeysContext.vaultID(removed))
        } catch {
            let detail = (error as? VaultError)?.message ?? "\(error)"
            throw CLIError.failure("removed key '\(removed.name)' from the database, but its private key could not be deleted from the vault: \(detail)",
                                   hint: "Run 'hostbook doctor' to find and remove the leftover vault item.")
        }
        if inv.json {
            inv.printJSON(.object([("name", .string(removed.name)), ("fingerprint", .string(removed.fingerprint)), ("removed", .bool(true))]))
        } else {
            inv.print("Removed key '\(removed.name)' (\(removed.fingerprint)).")
        }
    }
}
