// `keys generate`'s work (and `git setup --new-key`'s): a new key pair, its private half in
// the vault and its public half in the database (CredentialStore orders the two).
import Credentials
import HostStore
import KeyFormats

public enum KeyGeneration {
    /// Generates a key and stores it under `name` (checked already: KeyName); a taken name
    /// is refused before anything is generated.
    public static func generate(_ ctx: KeysContext, name: String, type: KeyGenerationType = .ed25519, bits: Int? = nil,
                                comment: String) throws -> StoredKey {
        _ = try ctx.credentials.admission(name: name, publicKey: nil)
        let key: PrivateKey
        do {
            key = try PrivateKeyGenerator.generate(type, bits: bits, comment: comment)
        } catch let e as KeyFormatError {
            throw KeysRefusal.cannotGenerate(reason: e.reason)
        }
        return try ctx.credentials.store(key, name: name, format: "generated").key
    }
}
