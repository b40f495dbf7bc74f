// `hostbook known-hosts list [HOST]`: the stored entries; with HOST, also its audit trail.
import HostStore
import KeyFormats

enum KnownHostsList {
    static let spec = CommandSpec(
        ["known-hosts", "list"], summary: "List trusted host keys (with HOST: its entries and history)",
        discussion: """
        --json prints an array of entries (host, port, type, fingerprint, marker, source, \
        first_seen, approved_at); with HOST an object with the host's entries and its audit events.
        Entries for patterns and hashed names have no port of their own (null).
        """,
        positionals: [.optional("HOST", "Show only what applies to this host")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let host = inv.args.positional(0)
        if let host { try KnownHostsAccess.validateHost(host) }
        let (rows, events) = try KnownHostsAccess.withExistingStore(inv) { store -> ([KnownHostRow], [HostKeyEvent]) in
            guard let store else { return ([], []) }
            guard let host else { return (try store.all(), []) }
            return (try store.entries(forHost: host), try store.events(forHost: host))
        }
        if let host, rows.isEmpty, events.isEmpty {
            throw CLIError.notFound("no known-hosts entries for '\(PrintableText.quoted(host))'")
        }
        if inv.json {
            let entries = JSONValue.array(rows.map(KnownHostsAccess.entryJSON))
            if let host {
                inv.printJSON(.object([("host", .string(HostPatternList.lowercased(host))), ("entries", entries),
                                       ("events", .array(events.map(KnownHostsAccess.eventJSON)))]))
            } else {
                inv.printJSON(entries)
            }
            return
        }
        if rows.isEmpty && host == nil {
            inv.print("No trusted host keys yet. Add some with 'hostbook known-hosts scan HOST' or 'hostbook known-hosts import'.")
            return
        }
        var table = Table(["HOST", "PORT", "TYPE", "FINGERPRINT", "MARKER", "SOURCE"])
        for r in rows {
            table.add([PrintableText.quoted(r.pattern), r.displayPort.map(String.init) ?? "-", PrintableText.quoted(r.keyType), r.fingerprint,
                       r.marker == .none ? "-" : "@" + r.marker.rawValue, PrintableText.quoted(r.source)])
        }
        Output.write(table.render(color: inv.useColor), to: 1)
        if !events.isEmpty {
            inv.print("")
            var log = Table(["TIME", "EVENT", "PORT", "FINGERPRINT", "SOURCE"])
            for e in events {
                let fp = e.oldFingerprint.map { old in "\(old) -> \(e.fingerprint ?? "")" } ?? (e.fingerprint ?? "-")
                log.add([PrintableText.quoted(e.at), PrintableText.quoted(e.event), String(e.port), PrintableText.quoted(fp), PrintableText.quoted(e.source)])
            }
            Output.write(log.render(color: inv.useColor), to: 1)
        }
    }
}
