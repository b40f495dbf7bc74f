// Who may use the session agent's keys (docs/openssh-behaviour.md, "The agent"). The agent itself
// already signs, on a bound connection, only for the bound session and host key; on top
// of that a key signs only when the host key its connection is bound to is trusted for a
// hop that key belongs to (asked of the trust core at signing time, so a key approved a
// moment earlier by KnownHostsCommand counts). Connections bound as forwarded get no
// signature, and with ssh 8.9 or later (which always sends session-bind) an unbound
// connection, i.e. any other process of this user finding the socket, gets none either.
import Agent
import HostStore
import KeyFormats

enum SSHAgentPolicy {
    /// The first OpenSSH that sends session-bind@openssh.com.
    static let bindingVersion = (major: 8, minor: 9)

    static func make(plan: SSHPlan, databasePath: String, client: SSHClient, secrets: SSHSecretsLoader) -> AgentPolicy {
        let requireBinding = (client.major, client.minor) >= bindingVersion
        let hops = plan.hops.compactMap { hop in hop.publicKey.map { (key: $0, host: hop.host.hostname, port: hop.host.port) } }
        return AgentPolicy(
            identities: { _ in (try? secrets.wait().get())?.identities ?? [] },
            maySign: { state, identity in
                if state.isForwarded { return false }
                guard let binding = state.bindings.last else { return !requireBinding }
                guard let database = try? HostDatabase.openForReading(path: databasePath) else { return false }
                let store = KnownHostsStore(database: database)
                // The bound key as the server presented it: a host certificate is decided as
                // ssh decides it (its CA's @cert-authority entries, then its certified key).
                return hops.contains { hop in
                    hop.key == identity.publicKey
                        && (try? SSHHostKeyLookup.decide(store, host: hop.host, port: hop.port, key: binding.hostKey).decision.status) == .trusted
                }
            })
    }
}
