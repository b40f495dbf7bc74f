// The signers of the keys whose private half is not in the vault, as the standing agent
// (`agent run`) and `hostbook ssh` set them up: one provider per KeyLocation (Sessions'
// KeySigners). A new kind of credential (a security key's middleware, a token's module)
// adds its provider here; the access policy and the agents stay as they are. A location
// without a provider is read through the vault, as before (an sk key's handle, which
// cannot sign by itself).
import Agent
import Sessions
import Tokens

enum KeySignerSetup {
    /// `upstreams`: the other agents' sockets, in the order they are asked. Token keys are
    /// found in the database at `databasePath`, their PINs asked through SSH_ASKPASS of
    /// `environment`, else on the terminal when `terminal` (`hostbook ssh`).
    static func signers(upstreams: [String], databasePath: String, environment: [String: String], terminal: Bool) -> KeySigners {
        KeySigners([.upstream: UpstreamKeySigners(sockets: upstreams),
                    .token: TokenAccess.signers(databasePath: databasePath, environment: environment, terminal: terminal)])
    }

    /// StandingAgent's `explain`: an upstream's or a token's failure in their words,
    /// anything else as before.
    static func explain(_ error: any Error) -> AgentKeyUnavailable {
        if let token = error as? TokenError { return token.agentUnavailable }
        return UpstreamAgentError.explain(error)
    }
}
