// How the program reaches security keys: the provider the environment names (or OpenSSH's
// built-in one), the agents' signer for an sk key, and a PIN asked on the terminal when
// the authenticator wants one (never from argv or the environment).
import Agent
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
    /// AgentKeyUnavailable in the log's words (naming the key and what to do).
    static func signer(_ environment: [String: String]) -> @Sendable (String, PrivateKey, [UInt8]) throws -> [UInt8] {
        let signer = SecurityKeySigner(provider: provider(environment))
        return { name, key, data in
            do throws(SecurityKeyError) {
                return try signer.sign(key, data: data)
            } catch {
                let (message, hint) = error.words(key: name)
                throw AgentKeyUnavailable(message: message, hint: hint)
            }
        }
    }

    /// The agent identity of a session's sk key.
    static func identity(_ key: PrivateKey, name: String, environment: [String: String]) -> AgentIdentity {
        let sign = signer(environment)
        let held = HeldSecurityKey(key)
        return AgentIdentity(publicKey: key.publicKey, comment: name) { data, _ in try sign(name, held.key, data) }
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

/// An sk key captured by a session's signer (it holds no secret: the handle only).
private final class HeldSecurityKey: @unchecked Sendable {
    let key: PrivateKey
    init(_ key: PrivateKey) { self.key = key }
}
