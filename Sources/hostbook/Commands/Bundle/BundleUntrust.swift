// `hostbook bundle untrust NAME [--signer "TYPE BASE64"]... [--ca-scope PATTERN]...`: a key
// may no longer sign bundle NAME (BundleStore.untrust); a host pattern granted to its
// certificate authorities is taken back (BundleStore.revokeScope). What the bundle brought stays; its next update must be
// signed by a signer still trusted.
import CommandLineKit
import HostStore
import ImportFormats
import KeyFormats
import Workflows

enum BundleUntrust {
    static let spec = CommandSpec(
        ["bundle", "untrust"], summary: "Stop trusting a key to sign bundle NAME",
        usage: "NAME [--signer \"TYPE BASE64\"]... [--ca-scope PATTERN]...",
        discussion: """
            The key is given as for 'bundle trust'. What the bundle brought stays; updates must then \
            be signed by a signer still trusted. A key that was not trusted changes nothing. \
            --ca-scope takes back a host pattern granted with 'bundle trust --ca-scope': the next \
            update applies the bundle's @cert-authority lines only within what is still granted.
            """,
        positionals: [.required("NAME", "The bundle's name")],
        options: [.value(.signer, "KEY", "A public key line: TYPE BASE64 [COMMENT] (repeatable)", repeatable: true),
                  .value(.caScope, "PATTERN", "A host pattern granted to the bundle's certificate authorities (repeatable)", repeatable: true)],
        run: run)

    static func run(_ inv: Invocation) throws {
        let name = inv.args.positional(0)!
        if let problem = BundleName.problem(name) { throw CLIError.rejected(problem) }
        let lines = inv.args.values(.signer), scope = inv.args.values(.caScope)
        guard !lines.isEmpty || !scope.isEmpty else {
            throw CLIError.usage("bundle untrust needs --signer \"TYPE BASE64\" or --ca-scope PATTERN",
                                 hint: "'hostbook bundle list --json' prints the trusted signers' keys and the scope granted.")
        }
        let keys = try lines.map(BundleTrust.signer)
        // No database: nothing is trusted, and none is created to say so.
        let untrusted = try BundleTrusting.untrust(inv.workspace, bundle: name, signers: keys, scope: scope)
        let removed = untrusted.signers, scopeRemoved = untrusted.scopeRemoved
        if inv.json {
            inv.printJSON(.object([
                ("bundle", .string(name)),
                ("signers", .array(removed.map { key, gone in
                    .object([("fingerprint", .string(key.sha256Fingerprint)), ("public_key", .string(key.line())), ("removed", .bool(gone))])
                })),
                ("ca_scope_removed", .strings(scopeRemoved)),
            ]))
            return
        }
        for (key, gone) in removed {
            inv.print(gone ? "Bundle '\(name)' may no longer be signed by \(key.sha256Fingerprint) (\(key.shortTypeName))."
                           : "\(key.sha256Fingerprint) was not a trusted signer of bundle '\(name)': nothing changed.")
        }
        for p in scope {
            inv.print(scopeRemoved.contains(p) ? "Bundle '\(name)' may no longer vouch for host certificates of '\(p)'."
                                               : "'\(p)' was not granted to bundle '\(name)': nothing changed.")
        }
    }
}
