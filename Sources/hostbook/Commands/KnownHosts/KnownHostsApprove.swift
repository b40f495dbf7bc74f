// `hostbook known-hosts approve HOST [--port N] --key "TYPE BASE64" [--fingerprint SHA256:...]
// [--yes] [--replace]`: trust a new key, or replace a changed one only on an explicit,
// separate decision (typing the new fingerprint, or --replace --fingerprint).
import HostStore
import KeyFormats

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
        positionals: [.required("HOST", "Host name or address, or a saved host's name", completes: .hosts)],
        options: [KnownHostsAccess.portOption, KnownHostsAccess.keyOption,
                  .value(.fingerprint, "SHA256:...", "Approve only if the key has this fingerprint"),
                  .flag(.yes, "Approve an unknown key without asking"),
                  .flag(.replace, "Replace a changed key (needs --fingerprint of the new key)")],
        run: run)

    struct Options {
        var yes = false
        var fingerprint: String?
        var replace = false
        var source = "manual"
    }

    static func run(_ inv: Invocation) throws {
        let lookup = try KnownHostsAccess.resolve(inv, host: inv.args.positional(0) ?? "")
        let presented = try KnownHostsAccess.presentedKey(inv, for: lookup)
        let options = Options(yes: inv.args.flag(.yes), fingerprint: inv.args.value(.fingerprint),
                              replace: inv.args.flag(.replace))
        let key = presented.plainKey
        if let f = options.fingerprint, f != key.sha256Fingerprint {
            throw CLIError.rejected("the fingerprint \(f) does not match the key (\(key.sha256Fingerprint))",
                                    hint: "Check the fingerprint with the host's administrator; nothing was changed.")
        }
        let outcome = try KnownHostsAccess.withStore(inv) { store in
            try decide(inv, store: store, lookup: lookup, presented: presented, options: options)
        }
        report(inv, outcome, lookup: lookup, key: key)
    }

    enum Outcome {
        case alreadyTrusted, approved, replaced([KnownHostRow])
    }

    /// The approval flow. Returns what was done or throws the refusal with its exit status.
    /// The store decides again inside its write transaction; when the host's entries changed
    /// since the prompt was shown, a terminal user is asked again about the new state, and
    /// without a terminal the command exits 11 with nothing written.
    static func decide(_ inv: Invocation, store: KnownHostsStore, lookup: HostLookupName,
                       presented: PresentedHostKey, options: Options) throws -> Outcome {
        while true {
            do {
                return try decideOnce(inv, store: store, lookup: lookup, presented: presented, options: options)
            } catch let e as HostStoreError where e.kind == .changedMeanwhile && inv.canPrompt {
                inv.warn("\(e.message); asking again")
            }
        }
    }

    static func decideOnce(_ inv: Invocation, store: KnownHostsStore, lookup: HostLookupName,
                           presented: PresentedHostKey, options: Options) throws -> Outcome {
        let key = presented.plainKey
        let check = try store.check(lookup, presented: presented)
        switch check.decision.status {
        case .trusted:
            return .alreadyTrusted
        case .revoked:
            throw CLIError(.hostKeyRevoked, "the \(KnownHostsAccess.describe(key)) is revoked for \(KnownHostsAccess.describe(lookup)); it cannot be approved")
        case .unknown:
            if options.yes || options.fingerprint != nil {
                return try store.approve(lookup, key: key, source: options.source) ? .approved : .alreadyTrusted
            }
            guard inv.canPrompt else {
                let why = inv.globals.noInput ? "--no-input was given" : "there is no terminal"
                throw CLIError.inputNeeded("approving the new \(KnownHostsAccess.describe(key)) for \(KnownHostsAccess.describe(lookup)) needs confirmation but \(why)",
                                           hint: "Use --yes, or --fingerprint SHA256:... to approve only that key.")
            }
            let others = try store.otherNames(trusting: key.sha256Fingerprint, excluding: lookup)
            if try KnownHostsPrompt.askApproval(inv, lookup, key: key, otherNames: others) {
                return try store.approve(lookup, key: key, source: options.source) ? .approved : .alreadyTrusted
            }
            try store.record(.rejected, lookup: lookup, key: key, source: options.source)
            throw CLIError(.hostKeyUnknown, "not approved: the key for \(KnownHostsAccess.describe(lookup)) stays unknown")
        case .changed:
            let shown = check.entries.map(\.id)
            if options.replace, options.fingerprint == key.sha256Fingerprint {
                return .replaced(try store.replace(lookup, with: key, expected: shown, source: options.source))
            }
            if inv.canPrompt {
                if try KnownHostsPrompt.askReplace(inv, lookup, key: key, stored: check.entries) {
                    return .replaced(try store.replace(lookup, with: key, expected: shown, source: options.source))
                }
                try store.record(.rejected, lookup: lookup, key: key, source: options.source)
                throw CLIError(.hostKeyChanged, "the host key for \(KnownHostsAccess.describe(lookup)) has changed; the stored key was kept")
            }
            try store.record(.rejected, lookup: lookup, key: key, source: options.source)
            let stored = check.entries.map(KnownHostsAccess.describeStored).joined(separator: ", ")
            throw CLIError(.hostKeyChanged,
                           "the host key for \(KnownHostsAccess.describe(lookup)) has changed (stored: \(stored)); it was not replaced",
                           hint: "If the new key is genuine, replace it with --replace --fingerprint \(key.sha256Fingerprint).")
        }
    }

    static func report(_ inv: Invocation, _ outcome: Outcome, lookup: HostLookupName, key: PublicKey) {
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
