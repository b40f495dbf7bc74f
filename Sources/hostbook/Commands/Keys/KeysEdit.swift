// `hostbook keys edit NAME ...`: changes a saved key's settings; each group of options is
// declared and read in its own file: the name, comment and approval (KeyEditOptions), the
// SSHSIG namespaces (KeysEditNamespaces). Everything is checked before anything is written.
// The command changes keys (changesHostsOrKeys), so a rename is carried into the allowed
// signers file afterwards (AllowedSignersRefresh).
import CommandLineKit
import HostStore
import Workflows

enum KeysEdit {
    static let spec = CommandSpec(
        ["keys", "edit"], changesHostsOrKeys: true,
        summary: "Change a key's name, comment, approval or namespaces",
        usage: KeyEditOptions.usage + " [--namespace NS]... [--no-namespace]",
        discussion: """
        Only what is given changes. With --confirm, every signature the agents make with the key \
        asks first: the program in $SSH_ASKPASS of the standing agent, or 'hostbook agent approve' \
        in a terminal; with neither, the signature is refused. --grant lets one approval cover \
        the same key, destination and requesting program for that long. --namespace restricts \
        the key to SSHSIG signatures in the given namespaces (e.g. git); a restricted key with \
        --confirm asks before each of those too.
        """,
        positionals: [.required("NAME", "The key", completes: SavedNames.keys)],
        options: KeyEditOptions.options + KeysEditNamespaces.options,
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        let changes = try KeyEditOptions.changes(inv.args)
        let namespaces = try KeysEditNamespaces.requested(inv)
        guard !changes.isEmpty || namespaces != nil else {
            throw CLIError.usage("nothing to change for key '\(name)'", hint: "Run 'hostbook keys edit --help' for the options.")
        }
        let edited = try KeyEditing.edit(name, changes, namespaces: namespaces, workspace: inv.workspace)
        let (key, use) = (edited.key, edited.use)
        if !edited.refusedHosts.isEmpty {
            inv.warn("saved hosts log in with key '\(key.name)', which no longer signs ssh logins: \(edited.refusedHosts.joined(separator: ", "))")
        }
        if inv.json {
            inv.printJSON(try KeyPresentation.json(key, use: use))
        } else {
            if let namespaces { inv.print(KeysEditNamespaces.summary(namespaces, key: key)) }
            if !changes.isEmpty || namespaces == nil { inv.print(try KeyPresentation.text(key, randomart: false, use: use)) }
        }
    }
}
