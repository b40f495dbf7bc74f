// The secrets of one `hostbook ssh` session: each hop's private key and password, read
// from the vault into secure memory (the plan, from Sessions, says which), and handed to
// the session's agent and askpass socket. How a key becomes an agent identity is the
// caller's (SSHSessionKeys): a vault key's format, a handle the vault holds (a security
// key's, signed by its location's VaultHandleSigner), and a key that lives elsewhere
// (another agent's, a token's: KeyLocation), served through its location's signer.
public import Agent
import Credentials
public import HostStore
import KeyFormats
import SecureMemory
public import Sessions
public import Vault

/// The secrets of a session, in secure memory: the keys the agent serves, and the password
/// of each hop that has one.
public struct SSHSecrets: @unchecked Sendable {
    public var identities: [AgentIdentity] = []
    public var passwords: [SSHPasswordAnswer] = []
}

/// How the session's keys become agent identities; supplied by the caller, asked on the
/// secrets' thread (SSHSecretsLoader) in hop order.
public protocol SSHSessionKeys: Sendable {
    /// True when `stored`'s private half lives elsewhere than the vault and a signer serves
    /// its location (else it is read from the vault).
    func signsElsewhere(_ stored: StoredKey) throws -> Bool
    /// The identity of such a key, signing through its location (asked only when ssh
    /// signs); nil when its public key cannot be read.
    func identityElsewhere(_ stored: StoredKey) -> AgentIdentity?
    /// The identity of `stored`, its private half read from `vault` into secure memory (a
    /// handle signs through its location's VaultHandleSigner, from the same KeySigners).
    func fromVault(_ stored: StoredKey, vault: VaultClient) throws -> AgentIdentity
}

extension SSHPlan {
    /// Reads each hop's private key and password into secure memory. `localUser` is the user
    /// ssh logs in as where a hop sets none.
    public func loadSecrets(localUser: String, keys: any SSHSessionKeys) throws -> SSHSecrets {
        let vault = VaultClient(databaseID: databaseID)
        var secrets = SSHSecrets()
        for (index, hop) in hops.enumerated() {
            if let stored = hop.key, stored.location != .vault, try keys.signsElsewhere(stored) {
                if !secrets.identities.contains(where: { $0.publicKey.blob == stored.publicKeyBlob }), let identity = keys.identityElsewhere(stored) {
                    secrets.identities.append(identity)
                }
            } else if let stored = hop.key {
                let identity = try keys.fromVault(stored, vault: vault)
                if !secrets.identities.contains(where: { $0.publicKey == identity.publicKey }) { secrets.identities.append(identity) }
            }
            if hop.hasPassword {
                let host = hop.host
                let password: SecretBytes?
                do { password = try vault.lookup(CredentialStore.passwordItemID(of: host)) } catch let e as VaultError {
                    throw SSHSessionRefusal.passwordUnreadable(host: host.name, vault: e)
                }
                guard let password else { throw SSHSessionRefusal.passwordNotInVault(host: host.name) }
                secrets.passwords.append(SSHPasswordAnswer(hop: index, host: host.name, prompt: SSHAskpass.passwordPrompt(user: host.user ?? localUser, hostname: host.hostname),
                                                           password: password))
            }
        }
        return secrets
    }
}

extension SSHAgentPolicy {
    /// The session agent's policy for `client`, serving the keys `secrets` reads.
    public static func make(plan: SSHPlan, database: HostDatabase, client: SSHClient, secrets: SSHSecretsLoader,
                            approver: (any AgentApprover)?, wording: any AgentWording) -> AgentPolicy {
        make(plan: plan, database: database, sshVersion: (client.major, client.minor), approver: approver,
             wording: wording, identities: { (try? secrets.wait().get())?.identities ?? [] })
    }
}
