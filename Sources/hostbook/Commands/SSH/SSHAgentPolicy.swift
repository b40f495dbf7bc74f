// The session agent's policy: the keys of the session's hops, each only to the host keys
// trusted for its hop; an unbound signer refused when ssh binds (8.9 or later); forwarded
// use refused (docs/openssh-behaviour.md, "The agent"). The decision is
// AgentAccessPolicy's, the same as the standing agent's; the private keys are the ones
// SSHSecretsLoader read from the vault.
import Agent
import AgentAccess
import HostStore

enum SSHAgentPolicy {
    static func make(plan: SSHPlan, databasePath: String, client: SSHClient, secrets: SSHSecretsLoader) -> AgentPolicy {
        let hops = plan.hops.compactMap { hop in hop.key.map { SessionHopKey(key: $0, host: hop.host.hostname, port: hop.host.port) } }
        let access = AgentAccessPolicy(rules: .session(hops: hops, sshVersion: (client.major, client.minor)),
                                       database: { try HostDatabase.openForReading(path: databasePath) })
        return access.agentPolicy(identity: { key in
            (try? secrets.wait().get())?.identities.first { $0.publicKey.blob == key.publicKeyBlob }
        })
    }
}
