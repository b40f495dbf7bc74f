// `keys export`'s work: a key whose private half hostbook holds, read from the vault,
// checked against its fingerprint and encoded as an openssh-key-v1 file (aes256-ctr and
// bcrypt with a passphrase, else unencrypted), for standard output or a new 0600 file.
import Credentials
import HostStore
import KeyFormats
import SecureMemory

public struct KeyExport {
    public static let defaultRounds = 16

    public let context: KeysContext
    public let key: StoredKey

    /// The key `name`, refused before any passphrase is asked when hostbook holds no
    /// private half of it, or when `output` exists.
    public init(name: String, output: String?, workspace: Workspace) throws {
        (context, key) = try KeysContext.existingKey(workspace, named: name)
        try VaultPrivateKey.requireHeld(key)
        if let output { try KeyFiles.refuseExisting(output) }
    }

    /// The key file, encrypted with `passphrase` (nil: unencrypted) and `rounds` bcrypt rounds.
    public func file(passphrase: SecretBytes?, rounds: Int) throws -> SecretBytes {
        let payload = try KeysRefusal.vault(.exportPrivateKey(key: key.name)) {
            try context.vault.lookup(CredentialStore.itemID(of: key))
        }
        let privateKey = try VaultPrivateKey.parse(payload, of: key)
        return try OpenSSHPrivateKey.encode(privateKey, passphrase: passphrase, rounds: rounds)
    }
}
