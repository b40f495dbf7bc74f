// The session agent's policy: the keys of the session's hops, each only to the host keys
// trusted for its hop; an unbound signer refused when ssh binds (8.9 or later); forwarded
// use refused (docs/openssh-behaviour.md, "The agent"). The decision is
// AgentAccessPolicy's, the same as the standing agent's; the private keys are the caller's
// (the executable reads them from the vault while ssh starts), and so is the approver of a
// key saved with `--confirm` (the session's terminal; none: such a key is refused), and the
// words of what the requester is told (AgentWording).
public import Agent
public import HostStore

public enum SSHAgentPolicy {
    /// `database`: the handle the plan was read from, kept open for the
    /// session and read afresh for each request; the agent opens nothing itself. Each hop's
    /// key is signed for on a connection bound to a host key the plan decided is trusted
    /// for it (SSHHop.acceptedHostKeys) without deciding again. `sshVersion`: the ssh
    /// client's (major, minor). `identities`: the session's private keys, once read (it may
    /// block until they are).
    public static func make(plan: SSHPlan, database: HostDatabase, sshVersion: (major: Int, minor: Int),
                            approver: (any AgentApprover)? = nil, wording: (any AgentWording)? = nil,
                            identities: @escaping @Sendable () -> [AgentIdentity]) -> AgentPolicy {
        let hops = plan.hops.compactMap { hop in
            hop.key.map { SessionHopKey(key: $0, host: hop.host.hostname, port: hop.host.port, acceptedHostKeys: hop.acceptedHostKeys) }
        }
        let access = AgentAccessPolicy(rules: .session(hops: hops, sshVersion: sshVersion),
                                       approvals: AgentApprovals(approver: approver, wording: wording),
                                       database: { database })
        return access.agentPolicy(identity: { key in
            identities().first { $0.publicKey.blob == key.publicKeyBlob }
        })
    }
}
