// The signers of the keys whose private half is not in the vault (Workflows'
// LocationSigners), with a token's PIN asked as TokenAccess asks it, and of the security
// keys whose handle the vault holds (SecurityKeyAccess), and their failures in the log's words.
import Agent
import HostStore
import Sessions
import Tokens
import Workflows

enum KeySignerSetup {
    /// `upstreams`: the other agents' sockets, in the order they are asked. Token keys are
    /// found in `database` (the command's handle), their PINs asked through SSH_ASKPASS of
    /// `environment`, else on the terminal when `terminal` (`hostbook ssh`); a security
    /// key's PIN likewise.
    static func signers(upstreams: [String], database: SharedDatabase?, environment: [String: String], terminal: Bool) -> KeySigners {
        LocationSigners.make(upstreams: upstreams, database: database,
                             securityKeys: SecurityKeyAccess.signer(environment, terminal: terminal)) { key, token in
            TokenAccess.askPIN(key: key.name, token: token.label, environment: environment, terminal: terminal)
        }
    }

    /// StandingAgent's `explain`: an upstream's or a token's failure in their words,
    /// anything else as before.
    static func explain(_ error: any Error) -> AgentKeyUnavailable {
        if let token = error as? TokenError { return token.agentUnavailable }
        return UpstreamAgentError.explain(error)
    }
}
