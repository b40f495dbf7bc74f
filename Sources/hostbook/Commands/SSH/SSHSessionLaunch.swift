// One `hostbook ssh` session (Workflows' SSHSession) as the executable starts it and says
// what came of it: the signers of the session's keys (Workflows' SSHSessionKeySource), which
// ask a security key's or a token's PIN on the terminal, and a token's refusal worded; a
// key saved with `--confirm` asked about on this terminal; and, once ssh has ended, the
// rotation's lines, the vault's failure and the stored password's hint. `hostbook ssh` and
// `hostbook keys deploy` run their sessions through here.
import CommandLineKit
import Agent
import HostStore
import KeyFormats
import Sessions
import System
import Vault
import Workflows

enum SSHSessionLaunch {
    /// Runs `plan` with `arguments` after the destination: ssh's exit status (255 for its
    /// own errors, else the remote command's). The waited signals must be blocked already
    /// (SSHSession.blockWaitedSignals). `client` is asked once the vault's reads have started
    /// on their own thread (they overlap with the rest of `ssh -V`).
    static func run(_ inv: Invocation, plan: SSHPlan, database: HostDatabase, config: SSHSessionConfig, client: () throws -> SSHClient,
                    localUser: String, arguments: [String]) throws -> Int32 {
        let upstreams = try upstreamSockets(plan, database), shared = SharedDatabase(database), environment = inv.environment
        let keys = SSHSessionKeySource(
            makeSigners: { KeySignerSetup.signers(upstreams: upstreams, database: shared, environment: environment, terminal: true) },
            explain: KeySignerSetup.explain,
            report: { _ = Output.write("hostbook: \(raw: $0.message)\n\(raw: $0.hint.map { $0 + "\n" } ?? "")", to: .standardError) })
        let secrets = try SSHSecretsLoader { try plan.loadSecrets(localUser: localUser, keys: keys) }
        let client = try client()
        let outcome = try SSHSession(workspace: inv.workspace, plan: plan, database: database, config: config, client: client, secrets: secrets,
                                     approver: SSHTerminalApprover.ifAllowed(noInput: inv.globals.noInput), wording: AgentApprovalWording())
            .run(arguments: arguments)
        SSHRotationReport.say(outcome.rotation)
        if let failure = outcome.secretsFailure { throw failure }
        if let host = outcome.passwordGivenBeforeFailure {
            let name = PrintableText.quoted(host)
            Hostbook.report(message: "ssh failed after hostbook gave it the stored password of '\(name)'; if ssh said 'Permission denied', that password is wrong",
                            hint: "Store the right one with 'hostbook edit \(ShellQuote.quote(host)) --password-stdin'.")
        }
        return outcome.exitStatus
    }

    /// The saved upstream agents' sockets, read from the session's handle on the caller's
    /// thread, when a hop's key lives elsewhere than the vault; else none (nothing read).
    private static func upstreamSockets(_ plan: SSHPlan, _ database: HostDatabase) throws -> [String] {
        guard plan.hops.contains(where: { $0.key.map { $0.location != .vault } ?? false }) else { return [] }
        return try HostStoreErrorPresentation.mapping { try UpstreamAgentSockets.all(given: [], database: database, ownSocket: nil) }
    }
}
