// The saved keys that live on PKCS#11 tokens (location `token`, `hostbook keys import-token`):
// each signs where TokenKeys says it is (module, token by serial and label, object by
// CKA_ID), with the PIN the session holds for that token (TokenPINs). A PIN is asked (by
// `askPIN`: the executable's askpass or terminal) only when none is held and the token
// needs a login, held only once the token accepted it, and forgotten by `drop()` (agent
// lock, vault lock, drop-keys). The module is loaded under the system-folder rule alone
// (TokenModulePath): a path read from the database never loads code from elsewhere.
public import Agent
public import HostStore
import KeyFormats
public import SecureMemory
public import Tokens

public struct TokenKeySigners: KeySignerProvider {
    /// The PINs this session holds, by token.
    public let pins: TokenPINs
    private let place: @Sendable (StoredKey) throws -> TokenKeyPlace?
    private let askPIN: @Sendable (StoredKey, TokenInfo) -> SecretBytes?

    /// `place`: where a saved token key is (TokenKeys; nil when it is not recorded).
    /// `askPIN`: the token's PIN, asked of the user (nil when nobody could be asked).
    public init(pins: TokenPINs = TokenPINs(), place: @escaping @Sendable (StoredKey) throws -> TokenKeyPlace?,
                askPIN: @escaping @Sendable (StoredKey, TokenInfo) -> SecretBytes?) {
        self.pins = pins
        self.place = place
        self.askPIN = askPIN
    }

    public func signer(for key: StoredKey) -> any AgentSigner { Signer(providers: self, key: key) }

    /// The module loads and the token is present (a PIN not held yet is asked when signing).
    public func unavailable(_ key: StoredKey) -> (any Error)? {
        do { _ = try locate(key) } catch { return error }
        return nil
    }

    public func drop() { pins.drop() }

    /// The key's module, token and object.
    func locate(_ key: StoredKey) throws -> (TokenModule, TokenInfo, TokenKeyObject) {
        guard let place = try place(key) else { throw TokenError.keyNotFound(id: []) }
        let module = try TokenModule.load(path: place.module)
        let token = try module.token(serial: place.tokenSerial, label: place.tokenLabel)
        return (module, token, TokenKeyObject(id: place.objectID, label: place.objectLabel, publicKey: try key.publicKey))
    }

    /// The agent's sign flags for an RSA hash (ssh-rsa, SHA-1, has none and is refused).
    static func flags(_ hash: RSASignatureHash) -> UInt32 {
        switch hash {
        case .sha1: 0
        case .sha256: TokenSignature.rsaSHA256Flag
        case .sha512: TokenSignature.rsaSHA512Flag
        }
    }

    private struct Signer: AgentSigner {
        let providers: TokenKeySigners
        let key: StoredKey

        func sign(_ data: [UInt8], rsaHash: RSASignatureHash) throws -> [UInt8] {
            let (module, token, object) = try providers.locate(key)
            let flags = TokenKeySigners.flags(rsaHash)
            guard token.loginRequired else {
                return try module.sign(data, flags: flags, key: object.publicKey, id: object.id, on: token, pin: nil)
            }
            let askPIN = providers.askPIN, key = self.key
            return try providers.pins.sign(data, flags: flags, key: object, on: token, module: module) { askPIN(key, token) }
        }
    }
}
