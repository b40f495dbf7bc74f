// `hostbook bundle untrust NAME --signer "TYPE BASE64"...`: a key may no longer sign bundle
// NAME (BundleStore.untrust). What the bundle brought stays; its next update must be
// signed by a signer still trusted.
import HostStore
import ImportFormats
import KeyFormats

enum BundleUntrust {
    static let spec = CommandSpec(
        ["bundle", "untrust"], summary: "Stop trusting a key to sign bundle NAME",
        usage: "NAME --signer \"TYPE BASE64\" [--signer ...]",
        discussion: """
            The key is given as for 'bundle trust'. What the bundle brought stays; updates must then \
            be signed by a signer still trusted. A key that was not trusted changes nothing.
            """,
        positionals: [.required("NAME", "The bundle's name")],
        options: [.value(.signer, "KEY", "A public key line: TYPE BASE64 [COMMENT] (repeatable)", repeatable: true)],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        if let problem = BundleName.problem(name) { throw CLIError.rejected(problem) }
        let lines = inv.args.values(.signer)
        guard !lines.isEmpty else {
            throw CLIError.usage("bundle untrust needs --signer \"TYPE BASE64\"", hint: "'hostbook bundle list --json' prints the trusted signers' keys.")
        }
        let keys = try lines.map(BundleTrust.signer)
        var removed: [(PublicKey, Bool)] = []
        // No database: nothing is trusted, and none is created to say so.
        if try HostStoreAccess.openForReading(inv) != nil {
            let store = BundleStore(database: try HostStoreAccess.openForWriting(inv))
            for key in keys { removed.append((key, try store.untrust(bundle: name, signer: key))) }
        } else {
            removed = keys.map { ($0, false) }
        }
        if inv.json {
            inv.printJSON(.object([
                ("bundle", .string(name)),
                ("signers", .array(removed.map { key, gone in
                    .object([("fingerprint", .string(key.sha256Fingerprint)), ("public_key", .string(key.line())), ("removed", .bool(gone))])
                })),
            ]))
            return
        }
        for (key, gone) in removed {
            inv.print(gone ? "Bundle '\(name)' may no longer be signed by \(key.sha256Fingerprint) (\(key.shortTypeName))."
                           : "\(key.sha256Fingerprint) was not a trusted signer of bundle '\(name)': nothing changed.")
        }
    }
}
