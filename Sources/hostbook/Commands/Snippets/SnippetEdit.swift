// `hostbook snippets edit NAME [--rename NEW] [--command TEXT | --command-stdin] [--description D]`.
import HostStore

enum SnippetEdit {
    static let spec = CommandSpec(
        ["snippets", "edit"], summary: "Change a saved command line",
        usage: "NAME [--rename NEW] [--command TEXT | --command-stdin] [--description D]",
        discussion: "The same rules as 'snippets add'. An empty --description clears it.",
        positionals: [.required("NAME", "The snippet to change", completes: .snippets)],
        options: [
            .value(.rename, "NEW", "A new name"),
            .value(.command, "TEXT", "The new command line"),
            .flag(.commandStdin, "Read the new command line from stdin"),
            .value(.description, "D", "What it does"),
        ],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        let a = inv.args
        try a.exclusive(.command, .commandStdin)
        if !a.has(.rename) && !a.has(.command) && !a.has(.commandStdin) && !a.has(.description) {
            throw CLIError.usage("nothing to change for snippet '\(name)'", hint: "Run 'hostbook snippets edit --help' for the options.")
        }
        guard try HostStoreAccess.openForReading(inv)?.snippet(named: name) != nil else {
            throw HostStoreError(.notFound, "no snippet named '\(name)'", hint: "See 'hostbook snippets list' for the snippets there are.")
        }
        let command = try SnippetInput.command(inv)
        let db = try HostStoreAccess.openForWriting(inv)
        let s = try db.editSnippet(name, rename: a.value(.rename), command: command, description: a.value(.description))
        if inv.json { inv.printJSON(SnippetOutput.json(s)) } else { inv.print("Updated snippet '\(s.name)'.") }
    }
}
