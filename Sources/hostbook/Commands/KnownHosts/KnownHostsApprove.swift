// `hostbook known-hosts approve HOST [--port N] --key "TYPE BASE64" [--fingerprint SHA256:...]
// [--yes] [--replace]`: trust a new key, or replace a changed one only on an explicit,
// separate decision (typing the new fingerprint, or --replace --fingerprint).
import CommandLineKit
import HostStore
import KeyFormats
import Workflows

enum KnownHostsApprove {
    static let spec = CommandSpec(
        ["known-hosts", "approve"], summary: "Trust a host key (asks first, like ssh)",
        usage: "HOST [--port N] --key \"TYPE BASE64\" [--fingerprint SHA256:...] [--yes] [--replace]",
        discussion: """
        On a terminal, shows the fingerprint and randomart and asks yes/no/[fingerprint]. A changed \
        key shows a warning and is replaced only when you type the new fingerprint.
        Without a terminal: --yes accepts an unknown key; a changed key needs --replace \
        --fingerprint SHA256:<new>. A --fingerprint that does not match the key is refused. \
        HOST may be the name of a saved host, whose hostname and port are used (and said on stderr).
        Exit status: 0 trusted, 10 not approved, 11 changed and not replaced, 12 revoked.
        """,
        positionals: [.required("HOST", "Host name or address, or a saved host's name", completes: SavedNames.hosts)],
        options: [KnownHostsAccess.portOption, KnownHostsAccess.keyOption,
                  .value(.fingerprint, "SHA256:...", "Approve only if the key has this fingerprint"),
                  .flag(.yes, "Approve an unknown key without asking"),
                  .flag(.replace, "Replace a changed key (needs --fingerprint of the new key)")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let lookup = try KnownHostsAccess.resolve(inv, host: inv.args.positional(0) ?? "")
        let presented = try KnownHostsAccess.presentedKey(inv, for: lookup)
        let options = HostKeyApproval.Options(yes: inv.args.flag(.yes), fingerprint: inv.args.value(.fingerprint),
                                              replace: inv.args.flag(.replace))
        let key = presented.plainKey
        try HostKeyApproval.checkFingerprint(options, key: key)
        let outcome = try KnownHostsAccess.withStore(inv) { store in
            try HostKeyApproval.run(presented, for: lookup, in: store, options: options, asking: KnownHostsAccess.asking(inv),
                                    questions: TerminalHostKeyQuestions(inv: inv)) { e in inv.warn("\(e.message); asking again") }
        }
        report(inv, outcome, lookup: lookup, key: key)
    }

    static func report(_ inv: Invocation, _ outcome: HostKeyApproval.Outcome, lookup: HostLookupName, key: PublicKey) {
        let result: String
        switch outcome {
        case .alreadyTrusted: result = "already-trusted"
        case .approved: result = "approved"
        case .replaced: result = "replaced"
        }
        if inv.json {
            var replaced: [String] = []
            if case .replaced(let old) = outcome { replaced = old.map(\.fingerprint) }
            inv.printJSON(.object([
                ("result", .string(result)), ("status", .string("trusted")),
                ("host", .string(lookup.host)), ("port", .int(lookup.port)),
                ("type", .string(key.type)), ("fingerprint", .string(key.sha256Fingerprint)),
                ("replaced", .strings(replaced)),
            ]))
            return
        }
        let host = KnownHostsAccess.describe(lookup)
        switch outcome {
        case .alreadyTrusted:
            inv.print("The \(KnownHostsAccess.describe(key)) is already trusted for \(host).")
        case .approved:
            inv.print("Approved: the \(KnownHostsAccess.describe(key)) is now trusted for \(host).")
        case .replaced(let old):
            inv.print("Replaced: the \(KnownHostsAccess.describe(key)) is now trusted for \(host).")
            for row in old where row.kind != .plain {
                inv.warn("the entry '\(PrintableText.quoted(row.pattern))' was removed with the old key; it may also have covered other hosts")
            }
        }
    }
}
