// Which signer serves a saved key, by where its private half lives (StoredKey.location,
// KeyLocation). An identity is its public half plus an AgentSigner (Agent); the access
// policy decides on the public half alone, so a new kind of credential plugs in here, as
// one more KeySignerProvider (or VaultHandleSigner), and nowhere else. The vault's keys are
// read by the caller that holds the vault (the standing agent's `readPrivateKey`, `hostbook
// ssh`'s session secrets) and need no provider; another agent's keys have
// UpstreamKeySigners; a token's come with the provider that reaches its device; a security
// key's handle is read from the vault like a vault key and signed by its location's
// VaultHandleSigner (without one, it is signed as a vault key, which refuses).
public import Agent
public import HostStore

/// Signs for the saved keys of one location.
public protocol KeySignerProvider: Sendable {
    /// A signer for `key`: it reaches the device or agent only when it signs, and throws
    /// (a typed error of its own) when it cannot.
    func signer(for key: StoredKey) -> any AgentSigner
    /// Whether `key` can sign now (`key-status@hostbook.io`): nil when it can, else the
    /// error a signature would throw.
    func unavailable(_ key: StoredKey) -> (any Error)?
    /// Forgets what the provider holds for its keys (a token's PINs) when the agent is
    /// locked or its keys are dropped; the next signature asks again.
    func drop()
}

extension KeySignerProvider {
    /// Providers that hold nothing have nothing to forget.
    public func drop() {}
}

/// The providers of the locations other than the vault, and the signers of the locations
/// whose handle the vault holds.
public struct KeySigners: Sendable {
    public var providers: [KeyLocation: any KeySignerProvider]
    public var handleSigners: [KeyLocation: any VaultHandleSigner]

    public init(_ providers: [KeyLocation: any KeySignerProvider] = [:],
                handleSigners: [KeyLocation: any VaultHandleSigner] = [:]) {
        self.providers = providers
        self.handleSigners = handleSigners
    }

    /// The provider that signs for `key`; nil when its location has none (the vault's keys
    /// are the caller's).
    public func provider(for key: StoredKey) -> (any KeySignerProvider)? { providers[key.location] }

    /// The signer of `key`'s handle read from the vault; nil when its location has none
    /// (its private half is then signed with as a vault key's).
    public func handleSigner(for key: StoredKey) -> (any VaultHandleSigner)? { handleSigners[key.location] }

    /// Every provider forgets what it holds (KeySignerProvider.drop).
    public func drop() {
        for provider in providers.values { provider.drop() }
    }
}
