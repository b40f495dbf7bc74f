// How the program reaches security keys: the provider the environment names (or OpenSSH's
// built-in one), the agents' signer for an sk key's handle (KeySignerSetup registers it),
// and a PIN asked on the terminal when the authenticator wants one (never from argv or the
// environment).
import System
import CommandLineKit
import Agent
import Workflows
import HostStore
import KeyFormats
import SecureMemory
import SecurityKeys
import Sessions

enum SecurityKeyAccess {
    /// The provider for this process: SSH_SK_PROVIDER, else OpenSSH's ssh-sk-helper.
    static func provider(_ environment: [String: String]) -> SecurityKeyProvider {
        SecurityKeyProvider(environment: environment)
    }

    /// What the agents call to sign with the sk key saved as `name`: an error is an
    /// AgentKeyUnavailable in the log's words (naming the key and what to do). A key that
    /// needs its PIN (verify-required, or the authenticator says so) has it asked through
    /// SSH_ASKPASS, else, when `terminal` (a `hostbook ssh` session), on the terminal.
    static func signer(_ environment: [String: String], terminal: Bool) -> SecurityKeyHandleSigner {
        SecurityKeyHandleSigner(provider: provider(environment),
                                  askPIN: { name in askPIN(name: name, environment: environment, terminal: terminal) },
                                  unavailable: { name, error in
                                      if error == .pinRequired {
                                          return AgentKeyUnavailable(message: "the security key of '\(name.escapedForTerminal)' needs its PIN and nobody could be asked for it",
                                                                     hint: "Set SSH_ASKPASS for the agent (hostbook asks the PIN through it), or log in with 'hostbook ssh' on a terminal.")
                                      }
                                      let (message, hint) = error.words(key: name)
                                      return AgentKeyUnavailable(message: message, hint: hint)
                                  })
    }

    /// The PIN through SSH_ASKPASS, else on the terminal when there is one to ask on.
    private static func askPIN(name: String, environment: [String: String], terminal: Bool) -> SecretBytes? {
        let prompt = "Enter the PIN of the security key for '\(name.escapedForTerminal)':"
        if let pin = AskpassSecret.ask(prompt, environment: environment) { return pin }
        guard terminal, FileDescriptor.standardInput.isTerminal else { return nil }
        return try? Terminal.readSecret(prompt: "\(raw: prompt) ")
    }

    /// Runs `body` without a PIN, and once more with the PIN asked on the terminal when the
    /// authenticator says it needs one.
    static func withPIN<R>(_ inv: Invocation, key: String?, _ body: (SecretBytes?) throws(SecurityKeyError) -> R) throws -> R {
        do {
            return try body(nil)
        } catch .pinRequired where inv.canPrompt {
            let prompt: TerminalText = key.map { "PIN of the security key for '\($0)': " } ?? "PIN of the security key: "
            let pin = try Terminal.readSecret(prompt: prompt)
            do { return try body(pin) } catch { throw error.cliError(key: key) }
        } catch {
            throw error.cliError(key: key)
        }
    }
}
