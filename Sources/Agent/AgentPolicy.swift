// Which keys a connection may list and use is the caller's decision: the agent holds no
// database and no vault. The caller hands in a policy; the agent enforces the protocol's
// own rules (a bound connection signs only for its session and its host key) before it
// asks the policy.
public import KeyFormats

/// A key the agent can serve: the private key (secret fields in secure memory), its
/// public half, and the comment `ssh-add -l` shows.
public struct AgentIdentity: @unchecked Sendable {
    public let key: PrivateKey
    public let publicKey: PublicKey
    public let comment: String

    public init(key: PrivateKey, comment: String) {
        self.key = key
        self.publicKey = key.publicKey
        self.comment = comment
    }
}

/// The process on the other end of a connection (SO_PEERCRED).
public struct AgentPeer: Sendable, Equatable {
    public let pid: Int32
    public let uid: UInt32
    public let gid: UInt32
}

/// What the policy knows about a connection when it decides.
public struct AgentConnectionState: Sendable {
    public let peer: AgentPeer
    /// Verified session-bind@openssh.com bindings, oldest first.
    public internal(set) var bindings: [SessionBinding] = []

    /// True when the last binding says the agent was forwarded to a remote machine.
    public var isForwarded: Bool { bindings.last?.isForwarding ?? false }
}

public struct AgentPolicy: Sendable {
    /// The keys this connection may see and use, in the order they are offered.
    public var identities: @Sendable (AgentConnectionState) -> [AgentIdentity]
    /// Asked before each signature, after the protocol's checks; false refuses it.
    public var maySign: @Sendable (AgentConnectionState, AgentIdentity) -> Bool

    public init(identities: @escaping @Sendable (AgentConnectionState) -> [AgentIdentity],
                maySign: @escaping @Sendable (AgentConnectionState, AgentIdentity) -> Bool = { state, _ in !state.isForwarded }) {
        self.identities = identities
        self.maySign = maySign
    }
}
