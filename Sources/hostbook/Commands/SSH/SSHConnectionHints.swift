// What `hostbook known-hosts lookup` (ssh's KnownHostsCommand) adds on ssh's stderr, where
// plain ssh with the installed configuration would otherwise end with a message that names
// no hostbook command:
//   * the agent ssh uses will give it no key (AgentReadiness: not running, or locked), or
//     lists the key but cannot sign with it (the vault is locked, the key's item is gone),
//     as Workflows' SSHHostKeyLookupFollowUp finds it;
//   * the host key changed: what was trusted, what the server offered, and the approve
//     command that accepts it; the refusal is recorded in `known-hosts history`.
// Each is one `hostbook: ...` line and a hint; nothing here changes what ssh decides.
import HostStore
import KeyFormats
import Sessions
import Workflows

enum SSHConnectionHints {
    /// For a saved host named `alias` with a key: tells why the agent at ssh's
    /// SSH_AUTH_SOCK will not sign, when it can tell. Silent otherwise.
    static func agent(_ inv: Invocation, database: HostDatabase, alias: String) {
        guard let problem = SSHHostKeyLookupFollowUp.agentProblem(database, alias: alias, environment: inv.environment),
              let socket = inv.environment["SSH_AUTH_SOCK"] else { return }
        let quotedKey = PrintableText.quoted(problem.key), quotedHost = PrintableText.quoted(problem.host)
        let shownSocket = socket.escapedForTerminal
        switch problem.readiness {
        case .ready, .undetermined:
            return
        case .notRunning:
            Hostbook.report(message: "the hostbook agent is not running (nothing answers at \(shownSocket)), so ssh gets no key '\(quotedKey)' for '\(quotedHost)'",
                            hint: "Start it with 'eval \"$(hostbook agent start)\"', then connect again.")
        case .cannotSign(_, let message, let hint):
            // The agent's words come from the vault and the database: escaped.
            Hostbook.report(message: "the agent cannot sign with key '\(quotedKey)' for '\(quotedHost)', so ssh will say 'agent refused operation': \(message.escapedForTerminal)",
                            hint: hint.isEmpty ? "Run 'hostbook doctor' to see what is wrong, then connect again." : hint.escapedForTerminal)
        case .listsNothing:
            Hostbook.report(message: "the agent at \(shownSocket) is locked (it offers no keys), so ssh gets no key '\(quotedKey)' for '\(quotedHost)'",
                            hint: "Unlock it with 'SSH_AUTH_SOCK=\(ShellQuote.quote(socket)) ssh-add -X', then connect again.")
        }
    }

    /// A changed host key: recorded as rejected (source `ssh`), and explained.
    static func changedHostKey(_ inv: Invocation, lookup: HostLookupName, presented key: PublicKey, stored: [KnownHostRow]) {
        SSHHostKeyLookupFollowUp.recordChanged(lookup, presented: key, in: inv.workspace)
        let trusted = stored.map(KnownHostsAccess.describeStored).joined(separator: ", ")
        let portFlag = lookup.port == HostLookupName.defaultPort ? "" : " --port \(lookup.port)"
        Hostbook.report(
            message: "the host key of \(KnownHostsAccess.describe(lookup)) has changed: hostbook trusts \(trusted), the server offered the \(KnownHostsAccess.describe(key)); ssh refuses it (see 'hostbook known-hosts history')",
            hint: "If the change is expected, accept the new key with 'hostbook known-hosts approve \(ShellQuote.quote(lookup.host))\(portFlag) --key \(ShellQuote.quote("\(key.type) \(key.base64)")) --replace --fingerprint \(key.sha256Fingerprint)'.")
    }
}
