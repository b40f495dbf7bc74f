// `hostbook known-hosts history [HOST [--port N]]`: the audit trail of host-key decisions (approved,
// rejected, replaced, revoked, imported, removed, learned, retired), oldest first, for every host or one.
import CommandLineKit
import HostStore
import KeyFormats
import Workflows

enum KnownHostsHistory {
    static let spec = CommandSpec(
        ["known-hosts", "history"], summary: "Show what was decided about host keys, and when",
        discussion: """
        Every decision is recorded: approved, rejected, replaced (old -> new fingerprint), revoked, \
        imported, removed, learned and retired (a host-key rotation), with its time (UTC) and source (manual, tofu, import, \
        tailscale, rotation, or ssh for a changed key plain ssh refused). \
        With HOST, only the events for that name (any port); HOST may be [HOST]:PORT or take \
        --port, and a saved host's name stands for its hostname and port (as for check, list and \
        scan): then only the events for that port. --json prints an array of events \
        (created_at, event, host, port, type, fingerprint, old_fingerprint, source); port is null, and \
        '-' in the table, for hashed and pattern entries, as in 'known-hosts list'.
        """,
        positionals: [.optional("HOST", "Show only the events for this host ([HOST]:PORT, or a saved host's name)", completes: SavedNames.hosts)],
        options: [KnownHostsAccess.portOption, Invocation.wideOption],
        run: run)

    static func run(_ inv: Invocation) throws {
        let host = inv.args.positional(0)
        if host == nil, inv.args.value(.port) != nil { throw CLIError.usage("--port needs HOST") }
        let resolved = try host.map { try KnownHostsAccess.resolving(inv, host: $0) }
        let events = try KnownHostsAccess.mappingErrors { try KnownHostsQueries.events(for: resolved, in: inv.workspace) }
        if let resolved, events.isEmpty {
            let name = resolved.portNamed ? KnownHostsAccess.describeWithPort(resolved.lookup) : "'\(PrintableText.quoted(resolved.lookup.host))'"
            throw CLIError.notFound("nothing was ever decided about \(name)",
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
