// `hostbook known-hosts list [HOST]`: the stored entries, all or those that apply to HOST.
// The same shape either way; the audit trail is `known-hosts history`.
import HostStore
import KeyFormats

enum KnownHostsList {
    static let spec = CommandSpec(
        ["known-hosts", "list"], summary: "List trusted host keys (all, or those for HOST)",
        discussion: """
        --json prints an array of entries (host, port, type, fingerprint, marker, source, \
        created_at), with HOST or without. Entries for patterns and hashed names have no port \
        of their own (null). What was decided about a host, and when: hostbook known-hosts history.
        """,
        positionals: [.optional("HOST", "Show only the entries that apply to this host", completes: .hosts)],
        options: [Table.wideOption],
        run: run)

    static func run(_ inv: Invocation) throws {
        let host = inv.args.positional(0)
        if let host { try KnownHostsAccess.validateHost(host) }
        let rows = try KnownHostsAccess.withExistingStore(inv) { store -> [KnownHostRow] in
            guard let store else { return [] }
            guard let host else { return try store.all() }
            return try store.entries(forHost: host)
        }
        if let host, rows.isEmpty {
            throw CLIError.notFound("no known-hosts entries for '\(PrintableText.quoted(host))'")
        }
        if inv.json {
            inv.printJSON(.array(rows.map(KnownHostsJSON.entry)))
            return
        }
        if rows.isEmpty {
            inv.print("No trusted host keys yet. Add some with 'hostbook known-hosts scan HOST' or 'hostbook known-hosts import'.")
            return
        }
        var table = Table(columns: [
            Table.column("HOST", minimum: 12), Table.column("PORT", shrinks: false), Table.column("TYPE", shrinks: false),
            Table.column("FINGERPRINT", minimum: 20), Table.column("MARKER", shrinks: false), Table.column("SOURCE", shrinks: false),
        ])
        for r in rows {
            table.add([r.pattern, r.displayPort.map(String.init) ?? "-", r.keyType, r.fingerprint,
                       r.marker == .none ? "-" : "@" + r.marker.rawValue, r.source])
        }
        inv.write(table.render(color: inv.useColor, width: inv.tableWidth))
    }
}
