// `hostbook keys cert remove KEY`: detaches KEY's certificate (the key stays).
import HostStore
import Workflows

enum KeysCertRemove {
    static let spec = CommandSpec(
        ["keys", "cert", "remove"], changesHostsOrKeys: true,
        summary: "Detach a key's certificate (the key stays)",
        usage: "KEY",
        positionals: [.required("KEY", "The key", completes: .keys)],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        let ctx = try KeysContext.open(inv.workspace)
        let key = try ctx.key(named: name)
        let removed: Bool
        do { removed = try KeyCertificates(database: ctx.database).remove(from: key) != nil } catch {
            throw KeysFailure.database(error, "cannot remove the certificate")
        }
        guard removed else {
            throw CLIError.notFound("key '\(key.name)' has no certificate", hint: "Run 'hostbook keys show \(ShellQuote.quote(key.name))' to see it.")
        }
        let stored = try ctx.key(named: key.name)
        if inv.json {
            inv.printJSON(try KeyPresentation.json(stored))
        } else {
            inv.print("Removed the certificate of key '\(key.name)'.")
        }
    }
}
