// `hostbook snippets show NAME`: one snippet, its command exactly as stored.
import CommandLineKit
import Workflows

enum SnippetShow {
    static let spec = CommandSpec(
        ["snippets", "show"], summary: "Show a saved command line",
        positionals: [.required("NAME", "The snippet to show", completes: SavedNames.snippets)],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        let s = try SnippetEditing.existing(name, in: inv.workspace)
        if inv.json {
            inv.printJSON(SnippetJSON.snippet(s))
        } else {
            inv.write("name:        \(s.name)\ncommand:     \(s.command)\ndescription: \(s.description ?? "-")\n")
            if !s.tags.isEmpty { inv.write("tags:        \(s.tags.joined(separator: ", "))\n") }
        }
    }
}
