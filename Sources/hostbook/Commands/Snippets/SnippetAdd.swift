// `hostbook snippets add NAME (--command TEXT | --command-stdin) [--description D] [--tag T]...`.
import CommandLineKit
import Workflows

enum SnippetAdd {
    static let spec = CommandSpec(
        ["snippets", "add"], summary: "Save a command line",
        usage: "NAME (--command TEXT | --command-stdin) [--description D] [--tag T]...",
        discussion: """
        The command is kept exactly as typed: never trimmed or rewritten. With
        --command-stdin, exactly one trailing newline is removed. Refused: empty or
        whitespace-only, over 16384 bytes of UTF-8, invalid UTF-8, line breaks or other
        control characters, Unicode bidirectional controls. A command that looks like it
        holds a secret is stored with a warning. Tags follow the hosts' rule; 'bundle export
        --tag T' publishes the snippets with tag T.
        """,
        positionals: [.required("NAME", "The snippet's name")],
        options: [
            .value(.command, "TEXT", "The command line"),
            .flag(.commandStdin, "Read the command line from stdin"),
            .value(.description, "D", "What it does"),
            .value(.tag, "T", "Add a tag (repeatable)", repeatable: true),
        ],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        try SnippetEditing.checkName(name)
        guard let command = try SnippetInput.command(inv) else {
            throw CLIError.usage("'hostbook snippets add' needs --command TEXT or --command-stdin",
                                 hint: "Run 'hostbook snippets add --help' for usage.")
        }
        let s = try SnippetEditing.add(name, command: command, description: inv.args.value(.description), tags: inv.args.values(.tag),
                                       in: inv.workspace)
        if inv.json { inv.printJSON(SnippetJSON.snippet(s)) } else { inv.print("Added snippet '\(s.name)'.") }
    }
}
