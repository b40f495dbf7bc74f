// `hostbook keys edit NAME [--namespace NS]... [--no-namespace]`: changes a saved key's
// settings; each group of options is handled in its own file (KeysEditNamespaces).
import HostStore

enum KeysEdit {
    static let spec = CommandSpec(
        ["keys", "edit"], changesHostsOrKeys: true,
        summary: "Change a key's settings",
        usage: "NAME [--namespace NS]... [--no-namespace]",
        positionals: [.required("NAME", "The key", completes: .keys)],
        options: KeysEditNamespaces.options,
        run: run)

    static func run(_ inv: Invocation) throws {
        let namespaces = try KeysEditNamespaces.requested(inv)
        guard namespaces != nil else {
            throw CLIError.usage("nothing to change", hint: "Give --namespace NS or --no-namespace (see 'hostbook keys edit --help').")
        }
        let ctx = try KeysContext.open(inv)
        let key = try ctx.key(named: inv.args.positional(0)!)
        if let namespaces {
            try KeysEditNamespaces.apply(namespaces, to: key, ctx)
            if let warning = KeysEditNamespaces.hostsWarning(namespaces, key: key, ctx) { inv.warn(warning) }
        }
        if inv.json {
            inv.printJSON(try KeyPresentation.json(key, use: try KeySigningUse.load(ctx.database, key)))
        } else {
            if let namespaces { inv.print(KeysEditNamespaces.summary(namespaces, key: key)) }
        }
    }
}
