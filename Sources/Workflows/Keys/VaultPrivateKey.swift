// Opening a key's private half from the vault: the item named for the key (CredentialStore),
// parsed in secure memory and checked against the database's fingerprint. A key whose
// private half hostbook does not hold (a token's, another agent's) is refused.
import Credentials
import HostStore
import KeyFormats
import SecureMemory
import Vault

public enum VaultPrivateKey {
    /// Refuses a key whose private half hostbook does not hold: a token's or another
    /// agent's (KeyLocation).
    public static func requireHeld(_ stored: StoredKey) throws {
        guard !stored.location.hasVaultItem else { return }
        switch stored.location {
        case .upstream: throw KeysRefusal.keyInUpstreamAgent(stored.name)
        default: throw KeysRefusal.keyNotHeld(stored.name, stored.location)
        }
    }

    /// The private key of `stored`; a missing, damaged or mismatched item is refused.
    public static func read(_ stored: StoredKey, from vault: VaultClient) throws -> PrivateKey {
        try requireHeld(stored)
        let payload = try KeysRefusal.vault(.readPrivateKey(key: stored.name)) {
            try vault.lookup(CredentialStore.itemID(of: stored))
        }
        return try parse(payload, of: stored)
    }

    /// The private key in `payload` (the vault item of `stored`, nil when there is none),
    /// parsed in place in secure memory and checked against the database's fingerprint.
    /// Callers that look the item up themselves (`keys export`) start here.
    public static func parse(_ payload: SecretBytes?, of stored: StoredKey) throws -> PrivateKey {
        guard let payload else { throw KeysRefusal.privateKeyMissing(stored.name) }
        let key: PrivateKey
        do {
            key = try OpenSSHPrivateKey.parse(payload, passphrase: nil).key
        } catch let e as KeyFormatError {
            throw KeysRefusal.privateKeyDamaged(stored.name, reason: e.reason)
        }
        guard key.publicKey.sha256Fingerprint == stored.fingerprint else {
            throw KeysRefusal.privateKeyMismatch(stored.name, fingerprint: stored.fingerprint)
        }
        return key
    }
}
