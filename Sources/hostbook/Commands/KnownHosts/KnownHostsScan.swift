// `hostbook known-hosts scan HOST|NAME [--port N] [--timeout SECONDS]`: runs ssh-keyscan (Keyscan), then
// asks about each key that is not trusted yet (the approval prompt, or the changed-key
// warning). NAME may be a saved host: its hostname and port are used.
#if canImport(Glibc)
import Glibc
#endif
import HostStore
import KeyFormats

enum KnownHostsScan {
    static let spec = CommandSpec(
        ["known-hosts", "scan"], summary: "Fetch a host's keys with ssh-keyscan and approve them",
        discussion: """
        Runs 'ssh-keyscan -T SECONDS -p PORT HOST' and asks about each key not yet trusted. HOST may be the \
        name of a saved host, whose hostname and port are used. Needs a terminal for new keys.
        A failed scan says why in one line: the name does not resolve, the connection was refused, \
        or it timed out (exit 1).
        Exit status: 0 all keys trusted, 10 a key was not approved, 11 a key has changed, 12 revoked.
        """,
        positionals: [.required("HOST|NAME", "Host name or address, or a saved host's name", completes: .hosts)],
        options: [KnownHostsAccess.portOption,
                  .value(.timeout, "SECONDS", "How long to wait for the host (default \(Keyscan.defaultTimeout), as ssh-keyscan -T)")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let given = inv.args.positional(0) ?? ""
        let timeout = try inv.args.int(.timeout, in: 1...600) ?? Keyscan.defaultTimeout
        let lookup = try KnownHostsAccess.resolve(inv, host: given)
        let host = lookup.host, port = lookup.port
        try KnownHostsAccess.withStore(inv) { store in
            let keys = try Keyscan.keys(host: host, port: port, timeout: timeout)
            guard !keys.isEmpty else {
                throw CLIError.failure("ssh-keyscan found no host keys for \(KnownHostsAccess.describe(lookup))",
                                       hint: "Check the host name and port, and that the host is reachable.")
            }
            // Every key is decided on its own, by OpenSSH's rules, against what was stored
            // before the scan (so approving the first key of a new host does not make its
            // other key types look changed). ssh-keyscan output is unauthenticated: a key no
            // entry holds, for a name that has entries, is CHANGED even when the same scan
            // also shows a trusted key (a man in the middle can replay the real one).
            let checks = try keys.map { try store.check(lookup, presented: .plain($0)) }
            let needsAnswer = checks.contains { $0.decision.status == .unknown || $0.decision.status == .changed }
            if needsAnswer && !inv.canPrompt {
                let why = inv.globals.noInput ? "--no-input was given" : "there is no terminal"
                let first = zip(keys, checks).first { $0.1.decision.status == .unknown || $0.1.decision.status == .changed }!.0
                let portFlag = port == HostLookupName.defaultPort ? "" : " --port \(port)"
                throw CLIError.inputNeeded("scan asks about new or changed keys but \(why)",
                                           hint: "Check the fingerprint, then run 'hostbook known-hosts approve \(ShellQuote.quote(lookup.host))\(portFlag) --key \(ShellQuote.quote("\(first.type) \(first.base64)")) --fingerprint \(first.sha256Fingerprint)'.")
            }
            var worst = ExitCode.ok
            var results: [JSONValue] = []
            // Keys this scan wrote for the name: later keys of the same scan go beside them.
            var written: [PublicKey] = []
            var replaced = false
            for (key, check) in zip(keys, checks) {
                var result: String
                switch check.decision.status {
                case .trusted:
                    result = "trusted"
                case .revoked:
                    result = "revoked"
                    Hostbook.report(message: "the \(KnownHostsAccess.describe(key)) is revoked for \(KnownHostsAccess.describe(lookup))", hint: nil)
                    worst = .hostKeyRevoked
                case .unknown:
                    let others = try store.otherNames(trusting: key.sha256Fingerprint, excluding: lookup)
                    if try KnownHostsPrompt.askApproval(inv, lookup, key: key, otherNames: others) {
                        try store.approve(lookup, key: key, source: "tofu", alongside: written)
                        written.append(key)
                        result = "approved"
                    } else {
                        try store.record(.rejected, lookup: lookup, key: key, source: "tofu")
                        if worst == .ok { worst = .hostKeyUnknown }
                        result = "rejected"
                    }
                case .changed:
                    if try KnownHostsPrompt.askReplace(inv, lookup, key: key, stored: check.entries) {
                        if replaced {
                            try store.approve(lookup, key: key, source: "tofu", alongside: written)
                        } else {
                            try store.replace(lookup, with: key, expected: check.entries.map(\.id), source: "tofu")
                            replaced = true
                        }
                        written.append(key)
                        result = "replaced"
                    } else {
                        try store.record(.rejected, lookup: lookup, key: key, source: "tofu")
                        result = "changed"
                        if worst != .hostKeyRevoked { worst = .hostKeyChanged }
                    }
                }
                if !inv.json { inv.print("\(result): \(KnownHostsAccess.describe(key))") }
                results.append(.object([("type", .string(key.type)), ("fingerprint", .string(key.sha256Fingerprint)), ("result", .string(result))]))
            }
            // A replacement removes every entry for the name (like ssh-keygen -R); the keys
            // of this scan that were trusted before stay trusted.
            if replaced {
                for (key, check) in zip(keys, checks) where check.decision.status == .trusted {
                    try store.approve(lookup, key: key, source: "tofu", alongside: written)
                    written.append(key)
                }
            }
            if inv.json {
                inv.printJSON(.object([("host", .string(lookup.host)), ("port", .int(lookup.port)), ("keys", .array(results))]))
            }
            if worst != .ok { throw ExitStatus(code: worst) }
        }
    }
}
