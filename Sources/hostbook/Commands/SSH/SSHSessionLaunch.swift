// One `hostbook ssh` session (Workflows' SSHSession) as the executable starts it and says
// what came of it: the session's keys read as the executable reads them (a vault key's
// format, a security key's PIN on the terminal, another location's signer: SSHSessionKeys),
// a key saved with `--confirm` asked about on this terminal, and, once ssh has ended, the
// rotation's lines, the vault's failure and the stored password's hint. `hostbook ssh` and
// `hostbook keys deploy` run their sessions through here.
#if canImport(Glibc)
import CommandLineKit
import Glibc
#endif
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
        let keys = SSHSessionKeySource(upstreams: try upstreamSockets(plan, database), database: SharedDatabase(database))
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
        return try HostStoreErrorPresentation.mapping { try AgentUpstreamSockets.all(given: [], database: database, ownSocket: nil) }
    }
}

/// The session's keys as the executable reads them, asked on the secrets' one thread
/// (SSHSecretsLoader), hence unchecked: the location signers are made there, once.
final class SSHSessionKeySource: SSHSessionKeys, @unchecked Sendable {
    private let upstreams: [String]
    private let database: SharedDatabase
    private var signers: KeySigners?

    /// `upstreams`: the saved upstream agents' sockets, for a hop whose key is one's;
    /// `database`: the session's handle, where a token key's place is read when it signs.
    init(upstreams: [String], database: SharedDatabase) {
        self.upstreams = upstreams
        self.database = database
    }

    /// Set up when a hop's key lives elsewhere than the vault.
    private func locationSigners() -> KeySigners {
        if let signers { return signers }
        let made = KeySignerSetup.signers(upstreams: upstreams, database: database, environment: ProcessEnvironment.current(), terminal: true)
        signers = made
        return made
    }

    func signsElsewhere(_ stored: StoredKey) throws -> Bool {
        locationSigners().provider(for: stored) != nil
    }

    func identityElsewhere(_ stored: StoredKey) -> AgentIdentity? {
        guard let provider = locationSigners().provider(for: stored), let publicKey = try? stored.publicKey else { return nil }
        let signer = provider.signer(for: stored), saysWhy = stored.location == .token
        return AgentIdentity(publicKey: publicKey, comment: stored.name) { data, hash in
            do { return try signer.sign(data, rsaHash: hash) } catch where saysWhy {
                // ssh itself says only "agent refused operation": say why, in one line and its hint.
                let unavailable = KeySignerSetup.explain(error)
                _ = Output.write("hostbook: \(raw: unavailable.message)\n\(raw: unavailable.hint.map { $0 + "\n" } ?? "")", to: STDERR_FILENO)
                throw unavailable
            }
        }
    }

    func fromVault(_ stored: StoredKey, vault: VaultClient) throws -> AgentIdentity {
        let key = try VaultPrivateKey.read(stored, from: vault)
        // A handle the vault holds (an sk key's) signs through its location's signer.
        guard stored.location != .vault, let signer = locationSigners().handleSigner(for: stored) else {
            return AgentIdentity(key: key, comment: stored.name)
        }
        let handle = VaultHandle(key)
        return AgentIdentity(publicKey: key.publicKey, comment: stored.name) { data, hash in
            do {
                return try signer.sign(data, with: handle.key, for: stored, rsaHash: hash)
            } catch let unavailable as AgentKeyUnavailable {
                // ssh itself says only "agent refused operation": say why, in one line and its
                // hint (the words are escaped already: SecurityKeyErrorPresentation).
                _ = Output.write("hostbook: \(raw: unavailable.message)\n\(raw: unavailable.hint.map { $0 + "\n" } ?? "")", to: STDERR_FILENO)
                throw unavailable
            }
        }
    }
}

/// A handle captured by a session's signer (it holds no secret: an sk key's handle names
/// the key its authenticator keeps).
private final class VaultHandle: @unchecked Sendable {
    let key: PrivateKey
    init(_ key: PrivateKey) { self.key = key }
}
