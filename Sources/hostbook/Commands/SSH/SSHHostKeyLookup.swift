// `hostbook known-hosts lookup PHASE NAME HOST PORT TYPE KEY ALIAS`: the KnownHostsCommand of
// `hostbook ssh` (docs/openssh-behaviour.md, "KnownHostsCommand"). ssh runs it with stdin on
// /dev/null and reads known_hosts lines from its stdout; what they are is Workflows'
// SSHHostKeyAnswer (one decision of the trust core), and what is written or checked beside
// them is its SSHHostKeyLookupFollowUp. Here: the arguments, the approval prompt, the lines
// printed, and what ssh would not say on its stderr:
//   trusted   why the agent will give ssh no key, when it will not (SSHConnectionHints);
//   revoked   the revocation list that revoked it;
//   changed   the refusal recorded and hostbook's hint printed;
//   unknown   on a terminal, hostbook's approval prompt on /dev/tty (recorded in the audit
//             trail) and the key on approval; otherwise nothing, and a line saying how to
//             approve it; a host certificate a trusted CA signed that is not acceptable is
//             refused with the reason, exit 5.
// It exits 0 otherwise; non-zero (which makes ssh stop) also when the database cannot be
// read.
import CommandLineKit
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
            switch try SSHHostKeyAnswer.answer(database, phase: phase, name: name, lookup: lookup, keyType: a[4], keyBase64: a[5]) {
            case .known(let lines):
                lines.forEach(emit)
            case .trusted(let lines):
                lines.forEach(emit)
                if let database { SSHConnectionHints.agent(inv, database: database, alias: alias) }
            case .revoked(let line, let key, let source):
                emit(line)
                if let source {
                    inv.note("the \(KnownHostsAccess.describe(key)) of \(KnownHostsAccess.describe(lookup)) is revoked by the revocation list of \(TrustOrigin(source: source).description)")
                }
            case .changed(let lines, let stored, let presented):
                // The stored keys: ssh shows "REMOTE HOST IDENTIFICATION HAS CHANGED" and refuses.
                lines.forEach(emit)
                SSHConnectionHints.changedHostKey(inv, lookup: lookup, presented: presented, stored: stored)
            case .unknown(let key):
                try unknown(inv, lookup: lookup, name: name, alias: alias, key: key)
            }
        } catch let e as HostStoreError where e.kind == .database {
            throw HostStoreErrorPresentation.cliError(e)
        }
    }

    /// An unknown key: approval on /dev/tty when allowed, else refused with how to approve.
    private static func unknown(_ inv: Invocation, lookup: HostLookupName, name: String, alias: String, key: PublicKey) throws {
        guard let tty = inv.globals.noInput ? nil : ControllingTerminal.open() else {
            let why = inv.globals.noInput ? "--no-input was given" : "there is no terminal to ask on"
            Hostbook.report(message: "the \(KnownHostsAccess.describe(key)) of \(KnownHostsAccess.describe(lookup)) is not known and \(why); nothing was trusted",
                            hint: "Check the fingerprint, then approve it with 'hostbook known-hosts scan \(alias.escapedForTerminal)'.")
            return
        }
        // The prompt reads and writes the terminal; stdout stays ssh's pipe.
        let savedIn = FileDescriptor.standardInput.duplicate(), savedErr = FileDescriptor.standardError.duplicate()
        tty.duplicate(onto: .standardInput)
        tty.duplicate(onto: .standardError)
        tty.close()
        defer {
            savedIn?.duplicate(onto: .standardInput); savedErr?.duplicate(onto: .standardError)
            savedIn?.close(); savedErr?.close()
        }
        let approved = try KnownHostsAccess.mappingErrors {
            try SSHHostKeyLookupFollowUp.decideUnknown(lookup, key: key, in: inv.workspace) { others in
                try KnownHostsPrompt.askApproval(inv, lookup, key: key, otherNames: others)
            }
        }
        if approved {
            // With --ssh-confirms (a `hostbook ssh` hop that learns on its first use) ssh
            // asks next and the session's askpass says yes from the store; a key ssh found
            // here would turn its UpdateHostKeys off (SSHHostKeyRotation).
            if !inv.args.flag(.sshConfirms) { emit(SSHHostKeyAnswer.line(name: name, key: key)) }
        } else {
            Hostbook.report(message: "not approved: the key for \(KnownHostsAccess.describe(lookup)) stays unknown", hint: nil)
        }
    }

    /// A known_hosts line on ssh's pipe (stdout is never the terminal here): raw, so the name
    /// ssh asked about comes back exactly as ssh gave it.
    private static func emit(_ line: String) { Output.write(.raw(line + "\n"), to: .standardOutput) }
}
