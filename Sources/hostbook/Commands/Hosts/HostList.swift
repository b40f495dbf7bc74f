// `hostbook list [--tag T]... [--source S]`: the hosts as a table or a JSON array.
import HostStore

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
            .value("tag", "T", "Only hosts with this tag (repeatable)", repeatable: true),
            .value("source", "S", "Only hosts from this source (manual, tailscale, ...)"),
            Table.wideOption,
        ],
        run: run)

    static func run(_ inv: Invocation) throws {
        let db = try HostStoreAccess.openForReading(inv)
        if inv.json {
            try HostListJSON.write(db, tags: inv.args.values("tag"), source: inv.args.value("source"), to: 1)
            return
        }
        let hosts = try db?.hosts(tags: inv.args.values("tag"), source: inv.args.value("source")) ?? []
        if hosts.isEmpty {
            inv.note("No hosts.")
            return
        }
        var table = Table(columns: [
            Table.column("NAME", minimum: 8), Table.column("HOSTNAME", minimum: 10), Table.column("PORT", shrinks: false),
            Table.column("USER", minimum: 4), Table.column("AUTH", minimum: 6), Table.column("JUMP", minimum: 4),
            Table.column("TAGS", minimum: 4), Table.column("SOURCE"),
        ])
        for h in hosts {
            table.add([h.name, h.hostname, String(h.port), h.user ?? "-", authCell(h), h.jump ?? "-",
                       h.tags.isEmpty ? "-" : h.tags.joined(separator: ","), h.source])
        }
        inv.write(table.render(color: inv.useColor, width: inv.tableWidth))
    }

    /// How the host logs in: `key:NAME` for a key, else the method (password, agent, none).
    static func authCell(_ h: Host) -> String {
        if h.auth == .key, let key = h.key { return "key:" + key }
        return h.auth.rawValue
    }
}
