// `hostbook snippets list`: every snippet, as a table or a JSON array.
import HostStore

enum SnippetList {
    static let spec = CommandSpec(["snippets", "list"], summary: "List saved command lines", run: run)

    static func run(_ inv: Invocation) throws {
        let list = try HostStoreAccess.openForReading(inv)?.snippets() ?? []
        if inv.json {
            inv.printJSON(.array(list.map(SnippetOutput.json)))
            return
        }
        if list.isEmpty {
            inv.note("No snippets.")
            return
        }
        var table = Table(["NAME", "COMMAND", "DESCRIPTION"])
        for s in list {
            // On a terminal long commands are shortened to keep the table readable;
            // `show` and --json give them whole.
            let command = inv.stdoutIsTerminal && s.command.count > 60 ? String(s.command.prefix(59)) + "…" : s.command
            table.add([s.name, command, s.description ?? "-"])
        }
        Output.write(table.render(color: inv.useColor), to: 1)
    }
}
