// Which keys a connection may list and use is the caller's decision: the agent holds no
// database and no vault. The caller hands in a policy; the agent enforces the protocol's
// own rules (a bound connection signs only for its session and its host key) before it
// asks the policy.
public import KeyFormats
public import SecureMemory
public import System

/// The process on the other end of a connection (SO_PEERCRED), and which program it is,
/// pinned by a pidfd taken when the connection was accepted (nil: none could be taken).
public struct AgentPeer: Sendable, Equatable {
    public let pid: Int32
    public let uid: UInt32
    public let gid: UInt32
    public let process: ProcessIdentity?

    public init(pid: Int32, uid: UInt32, gid: UInt32, process: ProcessIdentity? = nil) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.process = process
    }

    public static func == (a: AgentPeer, b: AgentPeer) -> Bool {
        a.pid == b.pid && a.uid == b.uid && a.gid == b.gid && a.process === b.process
    }
}

/// What the policy knows about a connection when it decides.
public struct AgentConnectionState: Sendable {
    public let peer: AgentPeer

    public init(peer: AgentPeer) { self.peer = peer }
    /// Verified session-bind@openssh.com bindings, oldest first.
    public internal(set) var bindings: [SessionBinding] = []
    /// True once a session-bind did not verify (malformed, a host key that does not
    /// parse, a bad signature); the conversation then refuses the connection everything.
    public internal(set) var bindFailed = false
    /// While `maySign` decides a signature: `SHA256:` and the unpadded base64 of SHA-256
    /// of the data to be signed, so an approval names the very request it answers (nil
    /// otherwise).
    public internal(set) var signingDigest: String?

    /// True when a binding says the agent was forwarded to a remote machine (the remote
    /// side's own binding for its destination comes after the forwarding one).
    public var isForwarded: Bool { bindings.contains { $0.isForwarding } }

    /// The host key (or host certificate) of the destination the connection authenticates
    /// to: the last binding that is not a forwarding hop; nil when there is none.
    public var destinationHostKey: PresentedHostKey? { bindings.last(where: { !$0.isForwarding })?.hostKey }
}

/// What `maySign` answers: whether to sign, and how that was decided (the caller's word
/// for its log, e.g. "prompt" or "grant"; nil when it has none).
public struct AgentSignDecision: Sendable, Equatable, ExpressibleByBooleanLiteral {
    public var allowed: Bool
    public var how: String?

    public init(allowed: Bool, how: String? = nil) {
        self.allowed = allowed
        self.how = how
    }

    public init(booleanLiteral value: Bool) { self.init(allowed: value) }

    public static func allowed(_ how: String?) -> AgentSignDecision { AgentSignDecision(allowed: true, how: how) }
    public static func refused(_ how: String?) -> AgentSignDecision { AgentSignDecision(allowed: false, how: how) }
}

/// What `outcome` is told about one signature request.
public struct AgentSignOutcome: Sendable, Equatable {
    /// True when a signature was returned.
    public let signed: Bool
    /// `maySign`'s word for how it decided; nil when it was not asked (the protocol's
    /// checks refused first, or the key is not offered) or said none.
    public let how: String?
    /// The certificate the signature was asked for: the one the request named, or the one
    /// in the user-authentication data when ssh names the plain key (a `CertificateFile`
    /// whose key the agent holds); nil for a plain key.
    public var certificate: Certificate? = nil
}

public struct AgentPolicy: Sendable {
    /// The keys this connection may see and use, in the order they are offered.
    public var identities: @Sendable (AgentConnectionState) -> [AgentIdentity]
    /// Asked before each signature, after the protocol's checks, with what the data to
    /// sign is; not allowed refuses it. It may take its time (asking the user): only this
    /// connection waits.
    public var maySign: @Sendable (AgentConnectionState, AgentIdentity, SignedData) -> AgentSignDecision

    /// Told the outcome of every signature request, with the key it named: signed when a
    /// signature was returned, else refused (a key the connection is not offered, the
    /// protocol's checks, `maySign`, or signing failed).
    public var outcome: (@Sendable (AgentConnectionState, PublicKey, AgentSignOutcome) -> Void)?
    /// `ssh-add -x` / `-X`: nil refuses them; otherwise true when the agent was locked /
    /// unlocked with that passphrase. Never asked for a forwarded connection. A locked
    /// agent's `identities` should be empty and its `maySign` false: the caller owns that
    /// state (AgentLock keeps it).
    public var lock: (@Sendable (SecretBytes) -> Bool)?
    public var unlock: (@Sendable (SecretBytes) -> Bool)?
    /// `key-status@hostbook.io` (AgentKeyStatus) for a key `identities` offers this
    /// connection: whether it can sign, and if not why; nil (or no closure) refuses the
    /// request. It may take its time (reading the vault): only this connection waits, and
    /// the client bounds its own wait.
    public var keyStatus: (@Sendable (AgentConnectionState, AgentIdentity) -> AgentKeyStatus?)?
    /// `drop-keys@hostbook.io` (AgentDropKeys): forget every private key and grant held, at
    /// once; nil refuses the request. Never asked for a forwarded connection.
    public var dropKeys: (@Sendable () -> Void)?

    public init(identities: @escaping @Sendable (AgentConnectionState) -> [AgentIdentity],
                maySign: @escaping @Sendable (AgentConnectionState, AgentIdentity, SignedData) -> AgentSignDecision = { state, _, _ in AgentSignDecision(allowed: !state.isForwarded) },
                outcome: (@Sendable (AgentConnectionState, PublicKey, AgentSignOutcome) -> Void)? = nil,
                lock: (@Sendable (SecretBytes) -> Bool)? = nil,
                unlock: (@Sendable (SecretBytes) -> Bool)? = nil) {
        self.identities = identities
        self.maySign = maySign
        self.outcome = outcome
        self.lock = lock
        self.unlock = unlock
    }
}
