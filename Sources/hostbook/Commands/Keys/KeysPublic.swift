// `hostbook keys public NAME`: the public line, as in a .pub file or authorized_keys.
import CommandLineKit
import Workflows

enum KeysPublic {
    static let spec = CommandSpec(
        ["keys", "public"],
        summary: "Print a key's public line (as in a .pub file / authorized_keys)",
        usage: "NAME",
        positionals: [.required("NAME", "The key", completes: SavedNames.keys)],
        run: run)

    static func run(_ inv: Invocation) throws {
        let (_, key) = try KeysContext.existingKey(inv.workspace, named: inv.args.positional(0)!)
        let line = try key.publicKey.line(comment: key.comment)
        if inv.json {
            inv.printJSON(.object([("name", .string(key.name)), ("public_key", .string(line))]))
        } else {
            // Escaped like any printed text: a comment with a line break must not add a
            // second line to the authorized_keys this is appended to.
            inv.print("\(line)")
        }
    }
}
