// `hostbook known-hosts check HOST [--port N] --key "TYPE BASE64"`: OpenSSH's decision,
// as exit status 0 trusted / 10 unknown / 11 changed / 12 revoked.
import CommandLineKit
import HostStore
import KeyFormats
import Workflows

enum KnownHostsCheck {
    static let spec = CommandSpec(
        ["known-hosts", "check"], summary: "Check a host key: trusted, unknown, changed or revoked",
        usage: "HOST [--port N] --key \"TYPE BASE64\"",
        discussion: """
        Decides exactly as OpenSSH does: trusted if an entry for the name holds the key, changed \
        if entries exist but none holds it (also when only a key of another type is known), \
        unknown if there are none, and revoked if an @revoked entry holds it or a revocation list \
        a bundle brought (bundle export --ca) revokes it. For ports other than \
        22 the name is [HOST]:PORT, falling back to HOST when that is unknown. HOST may be the \
        name of a saved host, whose hostname and port are used (and said on stderr).
        Exit status: 0 trusted, 10 unknown, 11 changed, 12 revoked.
        """,
        positionals: [.required("HOST", "Host name or address, or a saved host's name", completes: SavedNames.hosts)],
        options: [KnownHostsAccess.portOption, KnownHostsAccess.keyOption],
        run: run)

    static func run(_ inv: Invocation) throws {
        let lookup = try KnownHostsAccess.resolve(inv, host: inv.args.positional(0) ?? "")
        let presented = try KnownHostsAccess.presentedKey(inv, for: lookup)
        let check = try KnownHostsAccess.mappingErrors { try KnownHostsQueries.check(lookup, presented: presented, in: inv.workspace) }
        let key = presented.plainKey
        let status = check.decision.status
        if inv.json {
            inv.printJSON(.object([
                ("status", .string(status.rawValue)),
                ("host", .string(lookup.host)),
                ("port", .int(lookup.port)),
                ("type", .string(key.type)),
                ("fingerprint", .string(key.sha256Fingerprint)),
                ("via_bare_name", .bool(check.viaBareName)),
                ("via_certificate_authority", .bool(check.decision.viaCertificateAuthority)),
                ("revocation_list", .optional(check.revocationList)),
                ("entries", .array(check.entries.map(KnownHostsJSON.entry))),
            ]))
        } else {
            inv.print(line(check, key: key))
            // A certificate a CA trusted for this name signed, not accepted: say why (the
            // plain key decided the status above, as ssh falls back to it).
            if SSHHostKeyAnswer.refusesCertificate(presented, check) {
                let refusal = SSHSessionRefusal.hostCertificateRefused(lookup: lookup, presented: presented, problem: check.decision.certificateProblem)
                inv.note("\(refusal.message)")
            }
        }
        if status != .trusted { throw ExitStatus(code: KnownHostsAccess.exitCode(for: status)) }
    }

    static func line(_ check: KnownHostsStore.Check, key: PublicKey) -> TerminalText {
        let host = KnownHostsAccess.describe(check.lookup)
        switch check.decision.status {
        case .trusted:
            let how: TerminalText = check.decision.viaCertificateAuthority ? " (signed by a trusted certificate authority)"
                : check.viaBareName ? " (through the entry for '\(check.lookup.host)' on port 22, as ssh does)" : ""
            return "trusted: the \(KnownHostsAccess.describe(key)) is trusted for \(host)\(how)"
        case .unknown:
            return "unknown: no key is known for \(host)"
        case .changed:
            let stored = check.entries.map(KnownHostsAccess.describeStored).joined(separator: ", ")
            return "changed: \(host) is known with another key (\(stored)), not the \(KnownHostsAccess.describe(key))"
        case .revoked:
            if let source = check.revocationList {
                return "revoked: the \(KnownHostsAccess.describe(key)) is revoked by the revocation list of \(TrustOrigin(source: source).description)"
            }
            return "revoked: the \(KnownHostsAccess.describe(key)) is revoked for \(host)"
        }
    }
}
