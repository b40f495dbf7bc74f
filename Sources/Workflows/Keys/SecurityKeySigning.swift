// How the agents sign with a security key (sk) key: through the provider's signer, first
// without a PIN unless the key requires one (verify-required), then with the PIN its caller
// asks for when the authenticator wants one. The asking and the words are the caller's.
import Agent
import KeyFormats
import SecureMemory
import SecurityKeys
import Sessions

public enum SecurityKeySigning {
    /// What the agents call to sign with the sk key saved as `name`. `askPIN(name)`: the PIN,
    /// nil when nobody could be asked; `unavailable(name, error)`: a failure in the log's words.
    public static func signer(provider: SecurityKeyProvider,
                              askPIN: @escaping @Sendable (String) -> SecretBytes?,
                              unavailable: @escaping @Sendable (String, SecurityKeyError) -> AgentKeyUnavailable)
        -> @Sendable (String, PrivateKey, [UInt8]) throws -> [UInt8] {
        let signer = SecurityKeySigner(provider: provider)
        return { name, key, data in
            let asksPIN = SecurityKeyHandle(key)?.flags.contains(.userVerification) == true
            if !asksPIN {
                do throws(SecurityKeyError) {
                    return try signer.sign(key, data: data)
                } catch .pinRequired {
                    // Asked below.
                } catch {
                    throw unavailable(name, error)
                }
            }
            guard let pin = askPIN(name) else { throw unavailable(name, .pinRequired) }
            do throws(SecurityKeyError) {
                return try signer.sign(key, data: data, pin: pin)
            } catch {
                throw unavailable(name, error)
            }
        }
    }
}
