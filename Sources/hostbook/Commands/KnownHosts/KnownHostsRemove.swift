// `hostbook known-hosts remove HOST [--port N]` and `revoke HOST --key "TYPE BASE64"`.
import CommandLineKit
import HostStore
import KeyFormats
import Workflows

enum KnownHostsRemove {
    static let spec = CommandSpec(
        ["known-hosts", "remove"], summary: "Forget the trusted keys of a host",
        discussion: """
        Removes every entry that matches the host, like 'ssh-keygen -R': a pattern entry that \
        also covers other hosts is removed whole. @revoked and @cert-authority entries stay.
        """,
        positionals: [.required("HOST", "Host name or address", completes: SavedNames.hosts)],
        options: [KnownHostsAccess.portOption],
        run: run)

    static func run(_ inv: Invocation) throws {
        let lookup = try KnownHostsAccess.lookup(inv, host: inv.args.positional(0) ?? "")
        let removed = try KnownHostsAccess.mappingErrors { try KnownHostsEditing.remove(lookup, in: inv.workspace) }
        guard !removed.isEmpty else {
            throw CLIError.notFound("no trusted key is stored for \(KnownHostsAccess.describe(lookup))",
                                    hint: "Run 'hostbook known-hosts list' to see the entries.")
        }
        if inv.json {
            inv.printJSON(.object([("host", .string(lookup.host)), ("port", .int(lookup.port)),
                                   ("entries", .array(removed.map(KnownHostsJSON.entry)))]))
            return
        }
        inv.print("Removed \(removed.count) \(removed.count == 1 ? "entry" : "entries") for \(KnownHostsAccess.describe(lookup)).")
        for row in removed where row.kind == .patterns {
            inv.warn("the pattern entry '\(PrintableText.quoted(row.pattern))' was removed whole; it also covered other hosts")
        }
    }
}

enum KnownHostsRevoke {
    static let spec = CommandSpec(
        ["known-hosts", "revoke"], summary: "Mark a host key as revoked (@revoked)",
        usage: "HOST [--port N] --key \"TYPE BASE64\"",
        discussion: "A revoked key is never trusted for the host, whatever else is stored (exit 12 on check).",
        positionals: [.required("HOST", "Host name or address", completes: SavedNames.hosts)],
        options: [KnownHostsAccess.portOption, KnownHostsAccess.keyOption],
        run: run)

    static func run(_ inv: Invocation) throws {
        let lookup = try KnownHostsAccess.lookup(inv, host: inv.args.positional(0) ?? "")
        let key = try KnownHostsAccess.presentedKey(inv, for: lookup).plainKey
        let added = try KnownHostsAccess.mappingErrors { try KnownHostsEditing.revoke(lookup, key: key, in: inv.workspace) }
        if inv.json {
            inv.printJSON(.object([("host", .string(lookup.host)), ("port", .int(lookup.port)), ("type", .string(key.type)),
                                   ("fingerprint", .string(key.sha256Fingerprint)), ("marker", .string("revoked")),
                                   ("added", .bool(added))]))
            return
        }
        inv.print(added ? "Revoked: the \(KnownHostsAccess.describe(key)) is never trusted for \(KnownHostsAccess.describe(lookup))."
                        : "The \(KnownHostsAccess.describe(key)) was already revoked for \(KnownHostsAccess.describe(lookup)).")
    }
}
