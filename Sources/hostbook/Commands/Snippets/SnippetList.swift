// `hostbook snippets list`: every snippet, as a table or a JSON array.
import CommandLineKit
import HostStore
import Workflows

enum SnippetList {
    static let spec = CommandSpec(["snippets", "list"], summary: "List saved command lines",
                                  discussion: "On a terminal long commands are cut with '…' to fit; --wide, 'snippets show' and --json give them whole.",
                                  options: [Invocation.wideOption], run: run)

    static func run(_ inv: Invocation) throws {
        let list = try HostStoreAccess.openForReading(inv)?.snippets() ?? []
        if inv.json {
            inv.printJSON(.array(list.map(SnippetJSON.snippet)))
            return
        }
        if list.isEmpty {
            inv.note("No snippets.")
            return
        }
        var table = Table(columns: [Table.column("NAME", minimum: 8), Table.column("COMMAND", minimum: 16), Table.column("DESCRIPTION", minimum: 11)])
        for s in list { table.add([s.name, s.command, s.description ?? "-"]) }
        inv.write(table.render(color: inv.useColor, width: inv.tableWidth))
    }
}
