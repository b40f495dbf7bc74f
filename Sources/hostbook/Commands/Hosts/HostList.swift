// `hostbook list [--tag T]... [--source S]`: the hosts as a table or a JSON array.
import HostStore

enum HostList {
    static let spec = CommandSpec(
        ["list"], summary: "List hosts",
        discussion: "With several --tag, only hosts that have all of them. Tags and sources match regardless of case.",
        options: [
            .value("tag", "T", "Only hosts with this tag (repeatable)", repeatable: true),
            .value("source", "S", "Only hosts from this source (manual, tailscale, ...)"),
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
        var table = Table(["NAME", "HOSTNAME", "PORT", "USER", "AUTH", "TAGS", "SOURCE"])
        for h in hosts {
            table.add([h.name, h.hostname, String(h.port), h.user ?? "-", h.auth.rawValue,
                       h.tags.isEmpty ? "-" : h.tags.joined(separator: ","), h.source])
        }
        Output.write(table.render(color: inv.useColor), to: 1)
    }
}
