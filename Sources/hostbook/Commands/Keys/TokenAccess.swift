// How the agents reach the keys on PKCS#11 tokens (TokenKeySigners, Sessions, set up by
// Workflows' LocationSigners): the token's PIN asked through SSH_ASKPASS, else (a
// `hostbook ssh` session) on the terminal; never from argv or the environment. A failure is
// worded here for the agent log and key-status.
import CommandLineKit
import System
import Agent
import Workflows
import SecureMemory
import Sessions
import Tokens

enum TokenAccess {
    /// The PIN through SSH_ASKPASS, else on the terminal when there is one to ask on.
    static func askPIN(key: String, token: String, environment: [String: String], terminal: Bool) -> SecretBytes? {
        let prompt = "Enter the PIN of the token '\(token.escapedForTerminal)' for the key '\(key.escapedForTerminal)':"
        if let pin = AskpassSecret.ask(prompt, environment: environment), !pin.isEmpty { return pin }
        guard terminal, FileDescriptor.standardInput.isTerminal else { return nil }
        guard let pin = try? Terminal.readSecret(prompt: "\(raw: prompt) "), !pin.isEmpty else { return nil }
        return pin
    }
}

extension TokenError {
    /// Why an agent could not sign with a token key, as the log and key-status say it.
    var agentUnavailable: AgentKeyUnavailable {
        switch self {
        case .wrongPIN:
            return AgentKeyUnavailable(message: "the token refused the PIN", hint: "Nothing was kept; the next signature asks for the PIN again.")
        case .pinRequired:
            return AgentKeyUnavailable(message: "the token needs its PIN and nobody could be asked for it",
                                       hint: "Set SSH_ASKPASS for the agent (hostbook asks the PIN through it), or log in with 'hostbook ssh' on a terminal.")
        case .moduleNotAllowed(let path):
            return AgentKeyUnavailable(message: "the PKCS#11 module \(path.escapedForTerminal) is not under /usr/lib or /usr/local/lib",
                                       hint: "The agents load only modules in the system library folders.")
        default:
            let error = cliError()
            return AgentKeyUnavailable(message: error.message, hint: error.hint)
        }
    }
}
