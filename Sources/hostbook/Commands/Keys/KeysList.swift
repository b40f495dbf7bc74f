// `hostbook keys list`
import CommandLineKit
import HostStore
import Workflows

enum KeysList {
    static let spec = CommandSpec(
        ["keys", "list"],
        summary: "List the stored keys",
        options: [Invocation.wideOption],
        run: run)

    static func run(_ inv: Invocation) throws {
        let ctx = try KeysContext.openForReading(inv.workspace)
        let keys = try KeysRefusal.database(.readKeys) { try ctx?.store.list() ?? [] }
        if inv.json {
            let uses = try ctx.map { try KeySigningUse.all($0.database) } ?? [:]
            inv.printJSON(.array(try keys.map { try KeyPresentation.json($0, use: uses[$0.id] ?? .none) }))
            return
        }
        guard !keys.isEmpty else {
            inv.note("No keys yet. Add one with 'hostbook keys import PATH' or 'hostbook keys generate NAME'.")
            return
        }
        // A LOCATION column only when a key lives elsewhere than the vault, the CERTIFICATE
        // column only when a key has one: a list of plain vault keys reads as it always did.
        let located = keys.contains { $0.location != .vault }
        let certified = keys.contains { $0.certificate != nil }
        var table = Table(columns: [
            Table.column("NAME", minimum: 8), Table.column("TYPE", shrinks: false), Table.column("BITS", shrinks: false),
            Table.column("FINGERPRINT", minimum: 20),
        ] + (located ? [Table.column("LOCATION", shrinks: false)] : []) + [Table.column("COMMENT")]
          + (certified ? [Table.column("CERTIFICATE")] : []))
        for k in keys {
            let location = located ? [KeyPresentation.shortLocation(k)] : []
            let certificate = certified ? [k.certificate.map { KeyCertificatePresentation.cell($0) } ?? "-"] : []
            table.add([k.name, try k.publicKey.shortTypeName, String(k.bits), k.fingerprint] + location + [k.comment] + certificate)
        }
        inv.write(table.render(color: inv.useColor, width: inv.tableWidth))
    }
}
