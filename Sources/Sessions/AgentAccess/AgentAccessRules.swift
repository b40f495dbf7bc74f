// What tells the two agents apart: the per-session agent of `hostbook ssh` and the
// standing agent of `hostbook agent run` decide with the same function
// (AgentAccessPolicy.permitted); only these rules differ.
public import HostStore
public import KeyFormats

/// A key of a `hostbook ssh` hop and the hop it authenticates to: it may be used only on a
/// connection bound to a host key trusted for that host and port.
public struct SessionHopKey: Sendable {
    public let key: StoredKey
    public let host: String
    public let port: Int
    /// The plain host keys the session's plan decided are trusted for the hop
    /// (SSHHop.acceptedHostKeys): a connection bound to one of them is the hop's without a
    /// decision of its own; any other host key (one approved during the session, a host
    /// certificate) is put to the trust core.
    public let acceptedHostKeys: [PublicKey]

    public init(key: StoredKey, host: String, port: Int, acceptedHostKeys: [PublicKey] = []) {
        self.key = key
        self.host = host
        self.port = port
        self.acceptedHostKeys = acceptedHostKeys
    }

    /// Whether the plan already decided `hostKey` is trusted for this hop.
    func planTrusts(_ hostKey: PresentedHostKey) -> Bool {
        guard case .plain(let key) = hostKey else { return false }
        return acceptedHostKeys.contains { $0.blob == key.blob }
    }
}

public struct AgentAccessRules: Sendable {
    /// The keys the agent holds, and whom each may serve once a connection is bound.
    public enum Keys: Sendable {
        /// The keys of the session's hops, each only to the host keys trusted for its hop.
        case sessionHops([SessionHopKey])
        /// Every saved key; a bound connection only the keys of the saved hosts that trust
        /// its host key (every key for a server no saved host trusts, or when those hosts
        /// have no key of their own).
        case everySavedKey
    }

    /// A connection that never sent session-bind (ssh-add, ssh-keygen -Y sign, ssh
    /// before 8.9, or any process of this user that finds the socket).
    public enum Unbound: Sendable {
        case everyKey
        /// Listed, never signed with: ssh 8.9 and later always binds first, so an unbound
        /// signer is not the session's ssh.
        case listedNeverSigned
    }

    /// A connection bound with is_forwarding (the agent reached through `ssh -A`).
    public enum Forwarded: Sendable {
        case refused
        /// Signs only when every host it was forwarded through is a saved host that
        /// allows it (`hostbook edit NAME --allow-agent-forwarding`).
        case throughHostsAllowingForwarding
    }

    public let keys: Keys
    public let unbound: Unbound
    public let forwarded: Forwarded

    public init(keys: Keys, unbound: Unbound, forwarded: Forwarded) {
        self.keys = keys
        self.unbound = unbound
        self.forwarded = forwarded
    }

    /// The first OpenSSH that sends session-bind@openssh.com.
    public static let bindingVersion = (major: 8, minor: 9)

    /// `hostbook ssh`'s agent: the hops' keys; an unbound signer refused when the ssh it
    /// runs binds (8.9 or later); forwarded use refused.
    public static func session(hops: [SessionHopKey], sshVersion: (major: Int, minor: Int)) -> AgentAccessRules {
        let binds = sshVersion >= bindingVersion
        return AgentAccessRules(keys: .sessionHops(hops), unbound: binds ? .listedNeverSigned : .everyKey, forwarded: .refused)
    }

    /// The standing agent (`hostbook agent run`).
    public static let standing = AgentAccessRules(keys: .everySavedKey, unbound: .everyKey, forwarded: .throughHostsAllowingForwarding)
}
