// `hostbook known-hosts list [HOST]`: the stored entries, all or those that apply to HOST.
// The same shape either way; the audit trail is `known-hosts history`.
import CommandLineKit
import HostStore
import KeyFormats
import Workflows

enum KnownHostsList {
    static let spec = CommandSpec(
        ["known-hosts", "list"], summary: "List trusted host keys (all, or those for HOST)",
        discussion: """
        --json prints an array of entries (host, port, type, fingerprint, marker, source, \
        created_at), with HOST or without. Entries for patterns and hashed names have no port \
        of their own (null). HOST may be [HOST]:PORT or take --port: then the entries ssh consults \
        for that port are listed ([HOST]:PORT, and HOST itself for another port than 22, hashed \
        entries included); a saved host's name stands for its hostname and port. What was decided \
        about a host, and when: hostbook known-hosts history.
        """,
        positionals: [.optional("HOST", "Show only the entries that apply to this host ([HOST]:PORT, or a saved host's name)", completes: SavedNames.hosts)],
        options: [KnownHostsAccess.portOption, Invocation.wideOption],
        run: run)

    static func run(_ inv: Invocation) throws {
        let host = inv.args.positional(0)
        if host == nil, inv.args.value(.port) != nil { throw CLIError.usage("--port needs HOST") }
        // A port (--port, [HOST]:PORT, or a saved host's) lists what 'check' would consult:
        // the entries for [HOST]:PORT and, for another port than 22, those for HOST. A
        // plain name alone lists its plain entries at any port and what matches it on 22.
        let lookup = try host.map { given -> HostLookupName? in
            let resolved = try KnownHostsAccess.resolving(inv, host: given)
            return resolved.portNamed ? resolved.lookup : nil
        }
        let rows = try KnownHostsAccess.mappingErrors { try KnownHostsQueries.entries(host: host, lookup: lookup ?? nil, in: inv.workspace) }
        if let host, rows.isEmpty {
            let name = (lookup ?? nil).map(KnownHostsAccess.describe) ?? "'\(PrintableText.quoted(host))'"
            throw CLIError.notFound("no known-hosts entries for \(name)")
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
