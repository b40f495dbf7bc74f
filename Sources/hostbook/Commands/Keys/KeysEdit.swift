// `hostbook keys edit NAME ...`: rename a key, change its comment, and say whether the
// agents ask before signing with it (KeyEditOptions holds the options).
import HostStore

enum KeysEdit {
    static let spec = CommandSpec(
        ["keys", "edit"], changesHostsOrKeys: true,
        summary: "Rename a key, change its comment, or make the agents ask before it signs",
        usage: KeyEditOptions.usage,
        discussion: """
        Only what is given changes. With --confirm, every signature the agents make with the key \
        asks first: the program in $SSH_ASKPASS of the standing agent, or 'hostbook agent approve' \
        in a terminal; with neither, the signature is refused. --grant lets one approval cover \
        the same key, destination and requesting program for that long.
        """,
        positionals: [.required("NAME", "The key", completes: .keys)],
        options: KeyEditOptions.options,
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        let changes = try KeyEditOptions.changes(inv.args)
        guard !changes.isEmpty else {
            throw CLIError.usage("nothing to change for key '\(name)'", hint: "Run 'hostbook keys edit --help' for the options.")
        }
        // A key that does not exist is reported without creating a database.
        _ = try KeysContext.existingKey(inv, named: name)
        let ctx = try KeysContext.open(inv)
        let changed: StoredKey?
        do {
            changed = try ctx.store.update(name: name, changes)
        } catch let e as HostStoreError where e.kind == .keyNameTaken {
            throw CLIError.rejected("a key named '\(changes.rename ?? name)' already exists", hint: "Choose another name with --rename.")
        } catch {
            throw KeysFailure.database(error, "cannot change key '\(name)'")
        }
        guard let changed else { throw KeysFailure.notFound(name) }
        if inv.json {
            inv.printJSON(try KeyPresentation.json(changed))
        } else {
            inv.print(try KeyPresentation.text(changed, randomart: false))
        }
    }
}
