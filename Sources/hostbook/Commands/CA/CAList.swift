// `hostbook ca list`
import CommandLineKit
import HostStore
import Workflows

enum CAList {
    static let spec = CommandSpec(
        ["ca", "list"],
        summary: "List the certificate authorities",
        options: [Invocation.wideOption],
        run: run)

    static func run(_ inv: Invocation) throws {
        let ctx = try CAContext.openForReading(inv.workspace)
        let (authorities, counts) = try ctx.map { c in try c.reading { (try c.store.list(), try c.store.counts()) } } ?? ([], [:])
        if inv.json {
            inv.printJSON(.array(try authorities.map {
                try CAPresentation.json($0, issued: counts[$0.id]?.issued ?? 0, revoked: counts[$0.id]?.revoked ?? 0)
            }))
            return
        }
        guard !authorities.isEmpty else {
            inv.note("No certificate authorities yet. Make one with 'hostbook ca create NAME'.")
            return
        }
        var table = Table(columns: [
            Table.column("NAME", minimum: 8), Table.column("TYPE", shrinks: false), Table.column("FINGERPRINT", minimum: 20),
            Table.column("ISSUED", shrinks: false), Table.column("REVOKED", shrinks: false),
        ])
        for ca in authorities {
            table.add([ca.name, try ca.publicKey.shortTypeName, ca.fingerprint,
                       String(counts[ca.id]?.issued ?? 0), String(counts[ca.id]?.revoked ?? 0)])
        }
        inv.write(table.render(color: inv.useColor, width: inv.tableWidth))
    }
}
