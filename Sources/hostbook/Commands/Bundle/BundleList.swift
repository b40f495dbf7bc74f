// `hostbook bundle list [--json]`: every bundle this database knows (subscribed, trusted,
// applied or exported): its URL, trusted signers, the scope granted to its certificate
// authorities, the serial applied and when, the serial exported (BundleStore.overview).
import CommandLineKit
import HostStore

enum BundleList {
    static let spec = CommandSpec(
        ["bundle", "list"], summary: "List subscriptions, trusted signers and the serials applied and exported",
        discussion: "One row per bundle name this database knows. --json gives the signers' public keys too.",
        options: [Invocation.wideOption], run: run)

    static func run(_ inv: Invocation) throws {
        let list = try HostStoreAccess.openForReading(inv).map { try BundleStore(database: $0).overview() } ?? []
        if inv.json {
            inv.printJSON(.array(list.map(json)))
            return
        }
        if list.isEmpty {
            inv.note("No bundles. Trust a publisher with 'hostbook bundle trust NAME --signer KEY', then 'hostbook bundle subscribe NAME URL'.")
            return
        }
        var table = Table(columns: [Table.column("NAME", minimum: 6), Table.column("SERIAL", minimum: 6), Table.column("UPDATED", minimum: 7),
                                   Table.column("EXPORTED", minimum: 8), Table.column("SIGNERS", minimum: 12), Table.column("URL", minimum: 10)])
        for b in list {
            table.add([b.name, b.appliedSerial.map(String.init) ?? "-", b.appliedAt ?? "-", b.exportedSerial.map(String.init) ?? "-",
                       b.signers.isEmpty ? "-" : b.signers.map(\.sha256Fingerprint).joined(separator: " "), b.url ?? "-"])
        }
        inv.write(table.render(color: inv.useColor, width: inv.tableWidth))
    }

    static func json(_ b: BundleOverview) -> JSONValue {
        .object([
            ("name", .string(b.name)),
            ("subscribed", .bool(b.url != nil)),
            ("url", b.url.map { .string($0) } ?? .null),
            ("signers", .array(b.signers.map { .object([("fingerprint", .string($0.sha256Fingerprint)), ("public_key", .string($0.line()))]) })),
            ("ca_scope", .strings(b.caScope)),
            ("serial_applied", b.appliedSerial.map { .int(Int(clamping: $0)) } ?? .null),
            ("applied_at", b.appliedAt.map { .string($0) } ?? .null),
            ("serial_exported", b.exportedSerial.map { .int(Int(clamping: $0)) } ?? .null),
        ])
    }
}
