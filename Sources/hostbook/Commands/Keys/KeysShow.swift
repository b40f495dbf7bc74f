// `hostbook keys show NAME [--randomart]` and `hostbook keys public NAME`
enum KeysShow {
    static let spec = CommandSpec(
        ["keys", "show"],
        summary: "Show a key's type, fingerprints and public key",
        usage: "NAME [--randomart]",
        positionals: [.required("NAME", "The key")],
        options: [.flag("randomart", "Also show the randomart picture, as 'ssh-keygen -lv' draws it")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let ctx = try KeysContext.open(inv)
        let key = try ctx.key(named: inv.args.positional(0)!)
        let randomart = inv.args.flag("randomart")
        if inv.json {
            inv.printJSON(try KeyPresentation.json(key, randomart: randomart))
        } else {
            inv.print(try KeyPresentation.text(key, randomart: randomart))
        }
    }
}

enum KeysPublic {
    static let spec = CommandSpec(
        ["keys", "public"],
        summary: "Print a key's public line (as in a .pub file / authorized_keys)",
        usage: "NAME",
        positionals: [.required("NAME", "The key")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let ctx = try KeysContext.open(inv)
        let key = try ctx.key(named: inv.args.positional(0)!)
        let line = try key.publicKey.line(comment: key.comment)
        if inv.json {
            inv.printJSON(.object([("name", .string(key.name)), ("public_key", .string(line))]))
        } else {
            inv.print(line)
        }
    }
}
