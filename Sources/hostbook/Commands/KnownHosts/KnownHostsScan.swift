// `hostbook known-hosts scan HOST|NAME [--port N] [--timeout SECONDS]`: runs ssh-keyscan (Keyscan), then
// asks about each key that is not trusted yet (the approval prompt, or the changed-key
// warning). NAME may be a saved host: its hostname and port are used.
import CommandLineKit
import HostStore
import KeyFormats
import Workflows

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
        positionals: [.required("HOST|NAME", "Host name or address, or a saved host's name", completes: SavedNames.hosts)],
        options: [KnownHostsAccess.portOption,
                  .value(.timeout, "SECONDS", "How long to wait for the host (default \(Keyscan.defaultTimeout), as ssh-keyscan -T)")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let given = inv.args.positional(0) ?? ""
        let timeout = try inv.args.int(.timeout, in: 1...600) ?? Keyscan.defaultTimeout
        let lookup = try KnownHostsAccess.resolve(inv, host: given)
        let host = lookup.host, port = lookup.port
        try KnownHostsAccess.withStore(inv) { store in
            let keys = try Keyscan.keys(host: host, port: port, timeout: timeout, environment: inv.environment)
            var worst = ExitCode.ok
            var results: [JSONValue] = []
            try HostKeyScan.decide(keys, for: lookup, in: store, asking: KnownHostsAccess.asking(inv),
                                   questions: TerminalHostKeyQuestions(inv: inv)) { key, result in
                switch result {
                case .trusted, .approved, .replaced: break
                case .revoked:
                    Hostbook.report(message: "the \(KnownHostsAccess.describe(key)) is revoked for \(KnownHostsAccess.describe(lookup))", hint: nil)
                    worst = .hostKeyRevoked
                case .rejected:
                    if worst == .ok { worst = .hostKeyUnknown }
                case .changed:
                    if worst != .hostKeyRevoked { worst = .hostKeyChanged }
                }
                if !inv.json { inv.print("\(result.rawValue): \(KnownHostsAccess.describe(key))") }
                results.append(.object([("type", .string(key.type)), ("fingerprint", .string(key.sha256Fingerprint)), ("result", .string(result.rawValue))]))
            }
            if inv.json {
                inv.printJSON(.object([("host", .string(lookup.host)), ("port", .int(lookup.port)), ("keys", .array(results))]))
            }
            if worst != .ok { throw ExitStatus(code: worst) }
        }
    }
}
