// `hostbook keys cert remove KEY`: detaches KEY's certificate (the key stays).
import CommandLineKit
import HostStore
import Workflows

enum KeysCertRemove {
    static let spec = CommandSpec(
        ["keys", "cert", "remove"], changesHostsOrKeys: true,
        summary: "Detach a key's certificate (the key stays)",
        usage: "KEY",
        positionals: [.required("KEY", "The key", completes: SavedNames.keys)],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        let stored = try KeyCertificateAttachment.remove(from: name, workspace: inv.workspace)
        if inv.json {
            inv.printJSON(try KeyPresentation.json(stored))
        } else {
            inv.print("Removed the certificate of key '\(stored.name)'.")
        }
    }
}
