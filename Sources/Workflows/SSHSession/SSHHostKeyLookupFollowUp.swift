// What `known-hosts lookup` (ssh's KnownHostsCommand) does beside the lines it answers
// (SSHHostKeyAnswer): for a trusted key, whether the agent ssh uses will sign for the saved
// host; for a changed key, the refusal recorded (source `ssh`); for an unknown key the user
// was asked about, the approval stored or the refusal recorded (source `tofu`). The
// executable asks, prints and words (SSHHostKeyLookup, SSHConnectionHints).
import HostStore
import KeyFormats
import Sessions

public enum SSHHostKeyLookupFollowUp {
    /// Why the agent at ssh's SSH_AUTH_SOCK will not sign for a saved host with a key.
    public struct AgentProblem: Sendable {
        /// The key's and the saved host's names (from the database).
        public let key: String
        public let host: String
        /// What the agent at the socket said (never `.ready` or `.undetermined`).
        public let readiness: AgentReadiness
    }

    /// For the saved host named `alias` with a key, read through the lookup's `database`:
    /// why the agent at `environment`'s SSH_AUTH_SOCK will not sign with it, when it can
    /// tell; nil otherwise (no socket, no such host or key, an agent that is ready).
    public static func agentProblem(_ database: HostDatabase, alias: String, environment: [String: String]) -> AgentProblem? {
        guard let socket = environment["SSH_AUTH_SOCK"], !socket.isEmpty,
              let host = try? database.host(named: alias), let keyName = host.key,
              let key = try? KeyStore(database: database).find(name: keyName) else { return nil }
        let readiness = AgentReadiness.check(socket: socket, key: key)
        switch readiness {
        case .ready, .undetermined: return nil
        case .notRunning, .cannotSign, .listsNothing: return AgentProblem(key: key.name, host: host.name, readiness: readiness)
        }
    }

    /// A changed host key ssh refuses: recorded as rejected (source `ssh`) in the audit
    /// trail; a failure to record it changes nothing ssh decides.
    public static func recordChanged(_ lookup: HostLookupName, presented key: PublicKey, in workspace: Workspace) {
        _ = try? KnownHostsStore(database: workspace.database()).record(.rejected, lookup: lookup, key: key, source: "ssh")
    }

    /// An unknown key asked about: `approve` is asked with the other names the key is trusted
    /// for; a yes stores the key (source `tofu`), a no records the refusal. Whether it was
    /// approved.
    public static func decideUnknown(_ lookup: HostLookupName, key: PublicKey, in workspace: Workspace,
                                     approve: (_ otherNames: [String]) throws -> Bool) throws -> Bool {
        let store = KnownHostsStore(database: try workspace.database())
        let others = try store.otherNames(trusting: key.sha256Fingerprint, excluding: lookup)
        if try approve(others) {
            _ = try store.approve(lookup, key: key, source: "tofu")
            return true
        }
        try store.record(.rejected, lookup: lookup, key: key, source: "tofu")
        return false
    }
}
