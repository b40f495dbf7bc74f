// `hostbook snippets remove NAME [--yes]`.
import CommandLineKit
import Workflows

enum SnippetRemove {
    static let spec = CommandSpec(
        ["snippets", "remove"], summary: "Remove a saved command line",
        discussion: "Asks first on a terminal; --yes skips the question (and is required without a terminal).",
        positionals: [.required("NAME", "The snippet to remove", completes: SavedNames.snippets)],
        options: [.flag(.yes, "Do not ask for confirmation")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        let existing = try SnippetEditing.existing(name, in: inv.workspace)
        try inv.confirmUnlessYes("Remove snippet '\(existing.name)'?")
        let s = try SnippetEditing.remove(name, in: inv.workspace)
        if inv.json {
            inv.printJSON(.object([("name", .string(s.name)), ("removed", .bool(true))]))
        } else {
            inv.print("Removed snippet '\(s.name)'.")
        }
    }
}
