// `hostbook keys show NAME [--randomart]`
import CommandLineKit
import Workflows

enum KeysShow {
    static let spec = CommandSpec(
        ["keys", "show"],
        summary: "Show a key's type, fingerprints and public key",
        usage: "NAME [--randomart]",
        positionals: [.required("NAME", "The key", completes: SavedNames.keys)],
        options: [.flag(.randomart, "Also show the randomart picture, as 'ssh-keygen -lv' draws it")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let (ctx, key) = try KeysContext.existingKey(inv.workspace, named: inv.args.positional(0)!)
        let randomart = inv.args.flag(.randomart)
        let use = try KeySigningUse.load(ctx.database, key)
        if inv.json {
            inv.printJSON(try KeyPresentation.json(key, randomart: randomart, use: use))
        } else {
            inv.print(try KeyPresentation.text(key, randomart: randomart, use: use))
        }
    }
}
