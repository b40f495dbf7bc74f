// `hostbook known-hosts lookup PHASE NAME HOST PORT TYPE KEY ALIAS`: the KnownHostsCommand of
// `hostbook ssh` (sshconnect.c load_hostkeys_command; docs/openssh-behaviour.md,
// "KnownHostsCommand"). ssh runs it with stdin on /dev/null and reads known_hosts lines from
// its stdout; the decision is the trust core's (Sessions' `SSHHostKeyDecision.decide`), and
// ssh then acts on the lines:
//   ORDER     the stored keys for the name, so ssh asks for an algorithm it can verify
//   HOSTNAME  trusted: the presented key (and, on stderr, why the agent will give ssh no
//             key, when it will not: SSHConnectionHints); revoked: an @revoked line;
//             changed: the stored keys (ssh refuses with its own warning, nothing is
//             replaced; the refusal is recorded and hostbook's hint printed); unknown: on a
//             terminal, hostbook's approval prompt on /dev/tty (recorded in the audit
//             trail) and the key on approval; otherwise nothing, and a line saying how to
//             approve it; a host certificate a trusted CA signed that is not acceptable
//             (expired, not yet valid, not for this name): refused with the reason, exit 5,
//             never the plain key's prompt.
// It exits 0 otherwise; non-zero (which makes ssh stop) also when the database cannot be
// read.
#if canImport(Glibc)
import Glibc
#endif
import HostStore
import KeyFormats
import Sessions
import Workflows
import System

enum SSHHostKeyLookup {
    static let spec = CommandSpec(
        ["known-hosts", "lookup"], summary: "Answer ssh's KnownHostsCommand (used by 'hostbook ssh')",
        usage: "[--ssh-confirms] PHASE NAME HOST PORT TYPE KEY ALIAS",
        discussion: """
        Run by ssh, not by hand: prints known_hosts lines for ssh to check the server's key \
        against. A key that is not known yet is offered for approval on the terminal (unless \
        --no-input); a changed or revoked key is left to ssh, which refuses it.
        """,
        positionals: [.required("PHASE", "ORDER, HOSTNAME or ADDRESS (%I)"), .required("NAME", "The name ssh looks up (%H)"),
                      .required("HOST", "Host name (%h)"), .required("PORT", "Port (%p)"),
                      .required("TYPE", "Key type or NONE (%t)"), .required("KEY", "Base64 key or NONE (%K)"),
                      .optional("ALIAS", "The alias typed (%n)")],
        options: [.flag(.sshConfirms, "After approving an unknown key, print nothing: ssh asks (StrictHostKeyChecking ask) and the session's askpass answers from the store")],
        run: run)

    static func run(_ inv: Invocation) throws {
        let a = inv.args.positionals
        let phase = a[0], name = a[1], host = a[2]
        guard let port = Int(a[3]), TCPPort.isValid(port) else { throw CLIError.usage("PORT must be a number from \(TCPPort.range.lowerBound) to \(TCPPort.range.upperBound)") }
        guard !name.contains(where: { $0 == " " || $0 == "\n" || $0 == "\t" }) else { throw CLIError.usage("NAME must be one word") }
        let alias = a.count > 6 ? a[6] : host
        let lookup = HostLookupName(host: host, port: port)
        do {
            // One handle for the call (nil: no database yet, nothing is trusted).
            let database = try HostStoreAccess.openForReading(inv)
            // The installed configuration's known_hosts file for this name: ssh's edits of the
            // last login taken, the file made equal to the store before ssh reads it.
            if let database { KeptKnownHostsSync.reconcile(inv, lookup: lookup, database: database) }
            if phase == "ORDER" || a[4] == "NONE" {
                guard let db = database else { return }
                printRows(try KnownHostsStore(database: db).knownKeyTypes(lookup).entries, name: name)
                return
            }
            let presented: PresentedHostKey
            do { presented = try PresentedHostKey.parse("\(a[4]) \(a[5])") } catch {
                throw CLIError.failure("ssh passed a host key hostbook cannot read (\(a[4].escapedForTerminal))")
            }
            guard let db = database else {
                try unknown(inv, lookup: lookup, name: name, alias: alias, presented: presented)
                return
            }
            let store = KnownHostsStore(database: db)
            let check = try SSHHostKeyDecision.decide(store, host: host, port: port, key: presented)
            switch check.decision.status {
            case .trusted:
                if check.decision.viaCertificateAuthority {
                    printRows(check.entries, name: name)
                } else {
                    emit("\(name) \(presented.plainKey.type) \(presented.plainKey.base64)")
                }
                SSHConnectionHints.agent(inv, database: db, alias: alias)
            case .revoked:
                emit("@revoked \(name) \(presented.plainKey.type) \(presented.plainKey.base64)")
                if let source = check.revocationList {
                    inv.note("the \(KnownHostsAccess.describe(presented.plainKey)) of \(KnownHostsAccess.describe(lookup)) is revoked by the revocation list of \(TrustOrigin(source: source).description)")
                }
            case .changed where refusesCertificate(presented, check), .unknown where refusesCertificate(presented, check):
                // A certificate a CA trusted for this name signed, but not acceptable
                // (expired, not yet valid, not for this name, ...): ssh would fall back to
                // its plain key and ask about it; refused here with the reason, and the
                // failing command makes ssh stop (sshconnect.c load_hostkeys_command).
                throw certificateRefusal(presented, check, lookup: lookup)
            case .changed:
                // The stored keys: ssh shows "REMOTE HOST IDENTIFICATION HAS CHANGED" and refuses.
                let stored = check.matched.filter { $0.marker == .none }
                printRows(stored, name: name)
                SSHConnectionHints.changedHostKey(inv, lookup: lookup, presented: presented.plainKey, stored: stored)
            case .unknown:
                try unknown(inv, lookup: lookup, name: name, alias: alias, presented: presented)
            }
        } catch let e as HostStoreError where e.kind == .database {
            throw HostStoreErrorPresentation.cliError(e)
        }
    }

    /// True when `presented` is a certificate signed by a CA an `@cert-authority` entry
    /// trusts for this name, the trust core did not accept it, and its plain key is not
    /// trusted (nor revoked) either.
    static func refusesCertificate(_ presented: PresentedHostKey, _ check: KnownHostsStore.Check) -> Bool {
        guard case .certificate(let cert) = presented, check.decision.certificateProblem != nil,
              check.decision.status == .unknown || check.decision.status == .changed else { return false }
        return check.matched.contains { $0.marker == .certAuthority && $0.keyBlob == cert.signatureKey.blob }
    }

    /// The refusal of such a certificate, saying why (exit 5; ssh then stops).
    static func certificateRefusal(_ presented: PresentedHostKey, _ check: KnownHostsStore.Check, lookup: HostLookupName) -> CLIError {
        guard case .certificate(let cert) = presented else { return CLIError.rejected("the host certificate is not acceptable") }
        var why = check.decision.certificateProblem ?? "it is not acceptable"
        if why.hasSuffix("expired") { why += " (valid until \(CertificateValidity.text(cert.validBefore)))" }
        if why.hasSuffix("not valid yet") { why += " (valid from \(CertificateValidity.text(cert.validAfter)))" }
        if why.contains("host name") && !cert.principals.isEmpty { why += "; it lists \(cert.principals.joined(separator: ", "))" }
        return CLIError.rejected("refusing the host certificate of \(KnownHostsAccess.describe(lookup)) (key id '\(cert.keyID)', serial \(cert.serial)), signed by a trusted certificate authority: \(why)",
                                 hint: "Nothing was trusted. The host needs a new certificate from its CA (hostbook ca sign CA --host ...); its plain key is not offered for approval.")
    }

    /// An unknown key: approval on /dev/tty when allowed, else refused with how to approve.
    private static func unknown(_ inv: Invocation, lookup: HostLookupName, name: String, alias: String, presented: PresentedHostKey) throws {
        let key = presented.plainKey
        let tty = inv.globals.noInput ? -1 : open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard tty >= 0 else {
            let why = inv.globals.noInput ? "--no-input was given" : "there is no terminal to ask on"
            Hostbook.report(message: "the \(KnownHostsAccess.describe(key)) of \(KnownHostsAccess.describe(lookup)) is not known and \(why); nothing was trusted",
                            hint: "Check the fingerprint, then approve it with 'hostbook known-hosts scan \(alias.escapedForTerminal)'.")
            return
        }
        // The prompt reads and writes the terminal; stdout stays ssh's pipe.
        let savedIn = dup(STDIN_FILENO), savedErr = dup(STDERR_FILENO)
        dup2(tty, STDIN_FILENO)
        dup2(tty, STDERR_FILENO)
        close(tty)
        defer {
            dup2(savedIn, STDIN_FILENO); dup2(savedErr, STDERR_FILENO)
            close(savedIn); close(savedErr)
        }
        try KnownHostsAccess.withStore(inv) { store in
            let others = try store.otherNames(trusting: key.sha256Fingerprint, excluding: lookup)
            if try KnownHostsPrompt.askApproval(inv, lookup, key: key, otherNames: others) {
                try store.approve(lookup, key: key, source: "tofu")
                // With --ssh-confirms (a `hostbook ssh` hop that learns on its first use) ssh
                // asks next and the session's askpass says yes from the store; a key ssh found
                // here would turn its UpdateHostKeys off (SSHHostKeyRotation).
                if !inv.args.flag(.sshConfirms) { emit("\(name) \(key.type) \(key.base64)") }
            } else {
                try store.record(.rejected, lookup: lookup, key: key, source: "tofu")
                Hostbook.report(message: "not approved: the key for \(KnownHostsAccess.describe(lookup)) stays unknown", hint: nil)
            }
        }
    }

    private static func printRows(_ rows: [KnownHostRow], name: String) {
        for row in rows {
            let marker = row.marker == .none ? "" : "@\(row.marker.rawValue) "
            emit("\(marker)\(name) \(row.keyType) \(Base64.encode(row.keyBlob))")
        }
    }

    /// A known_hosts line on ssh's pipe (stdout is never the terminal here): raw, so the name
    /// ssh asked about comes back exactly as ssh gave it.
    private static func emit(_ line: String) { Output.write(.raw(line + "\n"), to: STDOUT_FILENO) }
}
