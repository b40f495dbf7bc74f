// How `hostbook ssh` turns its hops' keys into agent identities (SSHSessionKeys): a key
// whose private half lives elsewhere (another agent's, a token's) signs through its
// location's signer; a vault key is read into secure memory, and a handle the vault holds
// (a security key's) signs through its location's VaultHandleSigner. The signers are made
// once, when the first key needs them, by the caller (it knows how to ask for a PIN); a
// signature refused for a reason the user can act on is reported through the caller before
// the refusal reaches ssh, which would say only that the agent refused.
public import Agent
public import HostStore
public import Sessions
public import Vault
import KeyFormats

public final class SSHSessionKeySource: SSHSessionKeys, @unchecked Sendable {
    private let makeSigners: @Sendable () -> KeySigners
    private let explain: @Sendable (any Error) -> AgentKeyUnavailable
    private let report: @Sendable (AgentKeyUnavailable) -> Void
    private var signers: KeySigners?

    /// `explain` words a token's failure; `report` says it on the terminal.
    public init(makeSigners: @escaping @Sendable () -> KeySigners, explain: @escaping @Sendable (any Error) -> AgentKeyUnavailable,
                report: @escaping @Sendable (AgentKeyUnavailable) -> Void) {
        self.makeSigners = makeSigners
        self.explain = explain
        self.report = report
    }

    private func locationSigners() -> KeySigners {
        if let signers { return signers }
        let made = makeSigners()
        signers = made
        return made
    }

    public func signsElsewhere(_ stored: StoredKey) throws -> Bool {
        locationSigners().provider(for: stored) != nil
    }

    /// Only a token's failure is reported here: another agent's refusal is that agent's to
    /// explain (its own prompt or message).
    public func identityElsewhere(_ stored: StoredKey) -> AgentIdentity? {
        guard let provider = locationSigners().provider(for: stored), let publicKey = try? stored.publicKey else { return nil }
        let signer = provider.signer(for: stored), saysWhy = stored.location == .token
        let explain = explain, report = report
        return AgentIdentity(publicKey: publicKey, comment: stored.name) { data, hash in
            do { return try signer.sign(data, rsaHash: hash) } catch where saysWhy {
                let unavailable = explain(error)
                report(unavailable)
                throw unavailable
            }
        }
    }

    public func fromVault(_ stored: StoredKey, vault: VaultClient) throws -> AgentIdentity {
        let key = try VaultPrivateKey.read(stored, from: vault)
        guard stored.location != .vault, let signer = locationSigners().handleSigner(for: stored) else {
            return AgentIdentity(key: key, comment: stored.name)
        }
        let handle = VaultHandle(key), report = report
        return AgentIdentity(publicKey: key.publicKey, comment: stored.name) { data, hash in
            do {
                return try signer.sign(data, with: handle.key, for: stored, rsaHash: hash)
            } catch let unavailable as AgentKeyUnavailable {
                report(unavailable)
                throw unavailable
            }
        }
    }
}

/// A vault key held for a handle signer's signatures.
private final class VaultHandle: @unchecked Sendable {
    let key: PrivateKey
    init(_ key: PrivateKey) { self.key = key }
}
