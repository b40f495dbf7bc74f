// `hostbook snippets edit NAME [--rename NEW] [--command TEXT | --command-stdin] [--description D] [--tag T]... [--untag T]...`.
import CommandLineKit
import Workflows

enum SnippetEdit {
    static let spec = CommandSpec(
        ["snippets", "edit"], summary: "Change a saved command line",
        usage: "NAME [--rename NEW] [--command TEXT | --command-stdin] [--description D] [--tag T]... [--untag T]...",
        discussion: "The same rules as 'snippets add'. An empty --description clears it. --untag of a tag the snippet does not have is refused (exit 5).",
        positionals: [.required("NAME", "The snippet to change", completes: SavedNames.snippets)],
        options: [
            .value(.rename, "NEW", "A new name"),
            .value(.command, "TEXT", "The new command line"),
            .flag(.commandStdin, "Read the new command line from stdin"),
            .value(.description, "D", "What it does"),
            .value(.tag, "T", "Add a tag (repeatable)", repeatable: true),
            .value(.untag, "T", "Remove a tag (repeatable)", repeatable: true),
        ],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        let a = inv.args
        try a.exclusive(.command, .commandStdin)
        if !a.has(.rename) && !a.has(.command) && !a.has(.commandStdin) && !a.has(.description) && !a.has(.tag) && !a.has(.untag) {
            throw CLIError.usage("nothing to change for snippet '\(name)'", hint: "Run 'hostbook snippets edit --help' for the options.")
        }
        _ = try SnippetEditing.existing(name, in: inv.workspace)
        let changes = SnippetChanges(rename: a.value(.rename), command: try SnippetInput.command(inv), description: a.value(.description),
                                     addTags: a.values(.tag), removeTags: a.values(.untag))
        let s = try SnippetEditing.edit(name, changes, in: inv.workspace)
        if inv.json { inv.printJSON(SnippetJSON.snippet(s)) } else { inv.print("Updated snippet '\(s.name)'.") }
    }
}
