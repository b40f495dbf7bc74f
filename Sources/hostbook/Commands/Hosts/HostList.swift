// `hostbook list [--tag T]... [--source S]`: the hosts as a table or a JSON array.
import CommandLineKit
import System
import HostStore
import Workflows

enum HostList {
    static let spec = CommandSpec(
        ["list"], summary: "List hosts",
        discussion: """
        With several --tag, only hosts that have all of them. Tags and sources match regardless of case,
        and a tag with or without Tailscale's 'tag:' prefix: --tag prod finds hosts imported with tag:prod.
        AUTH is the key's name (key:NAME), password or agent; JUMP is the jump host. On a terminal
        (or with $COLUMNS) the table fits the width, long fields cut with '…'; --wide shows them whole.
        """,
        options: [
            .value(.tag, "T", "Only hosts with this tag (repeatable)", repeatable: true),
            .value(.source, "S", "Only hosts from this source (manual, tailscale, ...)"),
            Invocation.wideOption,
        ],
        run: run)

    static func run(_ inv: Invocation) throws {
        let db = try HostStoreAccess.openForReading(inv)
        if inv.json {
            try HostListJSON.write(db, tags: inv.args.values(.tag), source: inv.args.value(.source), to: 1)
            return
        }
        var table = Table(columns: [
            Table.column("NAME", minimum: 8), Table.column("HOSTNAME", minimum: 10), Table.column("PORT", shrinks: false),
            Table.column("USER", minimum: 4), Table.column("AUTH", minimum: 6), Table.column("JUMP", minimum: 4),
            Table.column("TAGS", minimum: 4), Table.column("SOURCE"),
        ])
        // Straight from SQLite into the table's bytes (no `Host` per row), the cells as
        // `Host` would give them: NULL name and hostname empty, NULL source `manual`.
        try db?.forEachHost(tags: inv.args.values(.tag), source: inv.args.value(.source)) { row in
            row.withUTF8(.name) { table.cell(utf8: $0, null: "") }
            row.withUTF8(.hostname) { table.cell(utf8: $0, null: "") }
            table.cell(String(row.port))
            row.withUTF8(.user) { table.cell(utf8: $0, null: "-") }
            let auth = row.withUTF8(.auth) { $0.map { HostAuth(rawValue: String(decoding: $0, as: UTF8.self)) } ?? nil } ?? .agent
            let key = auth == .key ? row.withUTF8(.key) { $0.map { String(decoding: $0, as: UTF8.self) } } : nil
            table.cell(authCell(auth, key: key))
            row.withUTF8(.jump) { table.cell(utf8: $0, null: "-") }
            table.cell(row.tags.isEmpty ? "-" : row.tags.joined(separator: ","))
            row.withUTF8(.source) { table.cell(utf8: $0, null: "manual") }
            table.endRow()
        }
        if table.rowCount == 0 {
            inv.note("No hosts.")
            return
        }
        table.write(color: inv.useColor, width: inv.tableWidth, to: FileDescriptor.standardOutput.rawValue)
    }

    /// How the host logs in: `key:NAME` for a key, else the method (password, agent, none).
    static func authCell(_ auth: HostAuth, key: String?) -> String {
        if auth == .key, let key { return "key:" + key }
        return auth.rawValue
    }
}
