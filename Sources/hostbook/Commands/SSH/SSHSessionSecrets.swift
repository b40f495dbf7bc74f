// The secrets of one `hostbook ssh` session: each hop's private key and password, read
// from the vault into secure memory (the plan, from Sessions, says which), and handed to
// the session's agent and askpass socket. A key that lives elsewhere (another agent's:
// KeyLocation) is served through its location's signer instead, asked only when ssh signs
// (a token's PIN on the terminal when no askpass answers), its failure said on stderr.
import Agent
import Credentials
import HostStore
import KeyFormats
import SecureMemory
import Sessions
import Workflows
import Vault
#if canImport(Glibc)
import Glibc
#endif

/// The secrets of a session, in secure memory: the keys the agent serves, and the password
/// of each hop that has one.
struct SSHSecrets: @unchecked Sendable {
    var identities: [AgentIdentity] = []
    var passwords: [SSHPasswordAnswer] = []
}

extension SSHPlan {
    /// Reads each hop's private key and password from the vault into secure memory.
    /// `localUser` is the user ssh logs in as where a hop sets none.
    /// `upstreams`: the saved upstream agents' sockets (`upstreamSockets`), for a hop whose
    /// key is one's; `databasePath`: where a token key's place is read when it signs.
    func loadSecrets(localUser: String, upstreams: [String], databasePath: String) throws -> SSHSecrets {
        let vault = VaultClient(databaseID: databaseID)
        var secrets = SSHSecrets()
        // Set up when a hop's key lives elsewhere than the vault (the upstream sockets are
        // read from the database then).
        var signers: KeySigners?
        func locationSigners() throws -> KeySigners {
            if let signers { return signers }
            let made = KeySignerSetup.signers(upstreams: upstreams, databasePath: databasePath, environment: ProcessEnvironment.current(), terminal: true)
            signers = made
            return made
        }
        for (index, hop) in hops.enumerated() {
            if let stored = hop.key, stored.location != .vault, let provider = try locationSigners().provider(for: stored) {
                if !secrets.identities.contains(where: { $0.publicKey.blob == stored.publicKeyBlob }), let publicKey = try? stored.publicKey {
                    let signer = provider.signer(for: stored), saysWhy = stored.location == .token
                    secrets.identities.append(AgentIdentity(publicKey: publicKey, comment: stored.name) { data, hash in
                        do { return try signer.sign(data, rsaHash: hash) } catch where saysWhy {
                            // ssh itself says only "agent refused operation": say why, in one line and its hint.
                            let unavailable = KeySignerSetup.explain(error)
                            _ = Output.write("hostbook: \(raw: unavailable.message)\n\(raw: unavailable.hint.map { $0 + "\n" } ?? "")", to: STDERR_FILENO)
                            throw unavailable
                        }
                    })
                }
            } else if let stored = hop.key {
                let key = try VaultPrivateKey.read(stored, from: vault)
                if !secrets.identities.contains(where: { $0.publicKey == key.publicKey }) {
                    // An sk key signs through its authenticator; the vault holds its handle.
                    secrets.identities.append(key.needsSecurityKey
                        ? SecurityKeyAccess.identity(key, name: stored.name, environment: ProcessEnvironment.current())
                        : AgentIdentity(key: key, comment: stored.name))
                }
            }
            if hop.hasPassword {
                let host = hop.host
                let password = try HostPasswords.vault("read the password of '\(host.name)'") {
                    try vault.lookup(CredentialStore.passwordItemID(of: host))
                }
                guard let password else {
                    throw CLIError.failure("the password of '\(host.name)' is not in the vault",
                                           hint: "Store it again with 'hostbook edit \(host.name) --password-stdin'.")
                }
                secrets.passwords.append(SSHPasswordAnswer(hop: index, host: host.name, prompt: SSHAskpass.passwordPrompt(user: host.user ?? localUser, hostname: host.hostname),
                                                           password: password))
            }
        }
        return secrets
    }

    /// The saved upstream agents' sockets, read from the session's handle on the caller's
    /// thread, when a hop's key lives elsewhere than the vault; else none (nothing read).
    func upstreamSockets(_ database: HostDatabase) throws -> [String] {
        guard hops.contains(where: { $0.key.map { $0.location != .vault } ?? false }) else { return [] }
        return try HostStoreErrorPresentation.mapping { try AgentUpstreamSockets.all(given: [], database: database, ownSocket: nil) }
    }
}

extension SSHAgentPolicy {
    /// The session agent's policy for `client`, serving the keys `secrets` reads.
    static func make(plan: SSHPlan, database: HostDatabase, client: SSHClient, secrets: SSHSecretsLoader,
                     approver: (any AgentApprover)?) -> AgentPolicy {
        make(plan: plan, database: database, sshVersion: (client.major, client.minor), approver: approver,
             wording: AgentApprovalWording(), identities: { (try? secrets.wait().get())?.identities ?? [] })
    }
}
