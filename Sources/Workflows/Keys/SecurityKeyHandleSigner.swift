// How the agents sign with a security key (sk) key: the signer of the `security-key`
// location (Sessions' VaultHandleSigner, registered in KeySigners), over the handle the
// vault holds, through the provider's signer: first without a PIN unless the key requires
// one (verify-required), then with the PIN its caller asks for when the authenticator
// wants one. The asking and the words are the caller's.
public import HostStore
public import KeyFormats
public import SecureMemory
public import SecurityKeys
public import Sessions

public struct SecurityKeyHandleSigner: VaultHandleSigner {
    private let signer: SecurityKeySigner
    private let askPIN: @Sendable (String) -> SecretBytes?
    private let unavailable: @Sendable (String, SecurityKeyError) -> AgentKeyUnavailable

    /// `askPIN(name)`: the PIN of the key saved as `name`, nil when nobody could be asked;
    /// `unavailable(name, error)`: a failure in the log's words.
    public init(provider: SecurityKeyProvider,
                askPIN: @escaping @Sendable (String) -> SecretBytes?,
                unavailable: @escaping @Sendable (String, SecurityKeyError) -> AgentKeyUnavailable) {
        self.signer = SecurityKeySigner(provider: provider)
        self.askPIN = askPIN
        self.unavailable = unavailable
    }

    /// The authenticator's signature of `data` (an sk signature has no RSA hash to choose).
    public func sign(_ data: [UInt8], with handle: PrivateKey, for key: StoredKey, rsaHash: RSASignatureHash) throws -> [UInt8] {
        let name = key.name
        let asksPIN = SecurityKeyHandle(handle)?.flags.contains(.userVerification) == true
        if !asksPIN {
            do throws(SecurityKeyError) {
                return try signer.sign(handle, data: data)
            } catch .pinRequired {
                // Asked below.
            } catch {
                throw unavailable(name, error)
            }
        }
        guard let pin = askPIN(name) else { throw unavailable(name, .pinRequired) }
        do throws(SecurityKeyError) {
            return try signer.sign(handle, data: data, pin: pin)
        } catch {
            throw unavailable(name, error)
        }
    }
}
