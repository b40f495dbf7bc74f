// `hostbook known-hosts history [HOST]`: the audit trail of host-key decisions (approved,
// rejected, replaced, revoked, imported, removed), oldest first, for every host or one.
import HostStore
import KeyFormats

enum KnownHostsHistory {
    static let spec = CommandSpec(
        ["known-hosts", "history"], summary: "Show what was decided about host keys, and when",
        discussion: """
        Every decision is recorded: approved, rejected, replaced (old -> new fingerprint), revoked, \
        imported, removed, with its time (UTC) and source (manual, tofu, import, tailscale, or ssh for a changed key plain \
        ssh refused). \
        With HOST, only the events for that name (any port). --json prints an array of events \
        (created_at, event, host, port, type, fingerprint, old_fingerprint, source); port is null, and \
        '-' in the table, for hashed and pattern entries, as in 'known-hosts list'.
        """,
        positionals: [.optional("HOST", "Show only the events for this host", completes: .hosts)],
        options: [Table.wideOption],
        run: run)

    static func run(_ inv: Invocation) throws {
        let host = inv.args.positional(0)
        if let host { try KnownHostsAccess.validateHost(host) }
        let events = try KnownHostsAccess.withExistingStore(inv) { store -> [HostKeyEvent] in
            guard let store else { return [] }
            guard let host else { return try store.allEvents() }
            return try store.events(forHost: host)
        }
        if let host, events.isEmpty {
            throw CLIError.notFound("nothing was ever decided about '\(PrintableText.quoted(host))'",
                                    hint: "Run 'hostbook known-hosts history' to see every host's events.")
        }
        if inv.json {
            inv.printJSON(.array(events.map(KnownHostsJSON.event)))
            return
        }
        if events.isEmpty {
            inv.print("No host-key decisions yet.")
            return
        }
        var table = Table(columns: [
            Table.column("TIME", shrinks: false), Table.column("EVENT", shrinks: false), Table.column("HOST", minimum: 12),
            Table.column("PORT", shrinks: false), Table.column("FINGERPRINT", minimum: 20), Table.column("SOURCE", shrinks: false),
        ])
        for e in events {
            let fp = e.oldFingerprint.map { old in "\(old) -> \(e.fingerprint ?? "")" } ?? (e.fingerprint ?? "-")
            table.add([e.at, e.event, e.host, e.displayPort.map(String.init) ?? "-", fp, e.source])
        }
        inv.write(table.render(color: inv.useColor, width: inv.tableWidth))
    }
}
