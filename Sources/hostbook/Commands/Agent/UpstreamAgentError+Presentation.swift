// What an upstream agent's failure (UpstreamAgentError, Agent) says to the user: in a
// command's error (`keys import-agent`, `agent upstream add`), in the agent log's reason
// for a refused signature, and in key-status (what plain ssh's KnownHostsCommand tells).
import Agent
import Sessions

extension UpstreamAgentError {
    var message: String {
        let at = "the upstream agent at \(socket.escapedForTerminal)"
        switch kind {
        case .notRunning: return "\(at) is not running"
        case .noAnswer: return "\(at) did not answer in time (or its reply was too large)"
        case .badReply(.tooManyKeys): return "\(at) lists more than \(UpstreamAgentLimits.standard.maxKeys) keys"
        case .badReply(.badSignature): return "\(at) answered with a signature that does not verify with the key"
        case .badReply: return "\(at) answered with a malformed reply"
        case .refused: return "\(at) refused the request"
        case .keyNotHeld: return "no upstream agent holds the key (asked: \(socket.isEmpty ? "none" : socket.escapedForTerminal))"
        }
    }

    var hint: String? {
        switch kind {
        case .notRunning, .noAnswer:
            return "Start that agent again (the key's signatures are refused until it answers), or save its new socket with 'hostbook agent upstream add SOCKET'."
        case .refused:
            return "That agent may be locked, or asked for a confirmation that was declined."
        case .keyNotHeld:
            return "Add the key to the upstream agent (ssh-add), or start hostbook's agent with '--upstream SOCKET'."
        case .badReply:
            return "Check which program listens at that socket."
        }
    }

    /// StandingAgent's `explain`: an upstream's failure in these words, anything else as before.
    static func explain(_ error: any Error) -> AgentKeyUnavailable {
        guard let upstream = error as? UpstreamAgentError else { return AgentKeyUnavailable.described(error) }
        return AgentKeyUnavailable(message: upstream.message, hint: upstream.hint)
    }
}
