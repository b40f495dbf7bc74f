// Reading a saved key's private half from the vault into secure memory, checked against
// the database's fingerprint. One reader for `hostbook ssh`'s session agent and the
// standing agent (`hostbook agent`).
import Credentials
import HostStore
import KeyFormats
import SecureMemory
import Vault

enum VaultPrivateKey {
    /// Refuses (exit 5) a key whose private half hostbook does not hold: a token's or
    /// another agent's (KeyLocation).
    static func requireHeld(_ stored: StoredKey) throws {
        guard !stored.location.hasVaultItem else { return }
        let name = stored.name.escapedForTerminal
        switch stored.location {
        case .upstream:
            throw CLIError.rejected("the key '\(name)' lives in another agent: hostbook holds no private key of it",
                                    hint: "hostbook signs with it through that agent ('hostbook agent upstream list').")
        default:
            throw CLIError.rejected("the key '\(name)' lives on a \(stored.location.rawValue): hostbook holds no private key of it")
        }
    }

    /// The private key of `stored`; a missing, damaged or mismatched item is exit 1.
    static func read(_ stored: StoredKey, from vault: VaultClient) throws -> PrivateKey {
        try requireHeld(stored)
        let payload = try HostPasswords.vault("read the private key of '\(stored.name.escapedForTerminal)'") {
            try vault.lookup(CredentialStore.itemID(of: stored))
        }
        return try parse(payload, of: stored)
    }

    /// The private key in `payload` (the vault item of `stored`, nil when there is none),
    /// parsed in place in secure memory and checked against the database's fingerprint; a
    /// missing, damaged or mismatched item is exit 1. Callers that look the item up with
    /// their own wording for a vault failure (`keys export`) start here.
    static func parse(_ payload: SecretBytes?, of stored: StoredKey) throws -> PrivateKey {
        guard let payload else {
            throw CLIError.failure("the private key of '\(stored.name.escapedForTerminal)' is not in the vault",
                                   hint: "Run 'hostbook doctor' to check the vault, or import the key again.")
        }
        let key: PrivateKey
        do {
            key = try OpenSSHPrivateKey.parse(payload, passphrase: nil).key
        } catch let e as KeyFormatError {
            throw CLIError.failure("the private key of '\(stored.name.escapedForTerminal)' in the vault is damaged: \(e.reason)")
        }
        guard key.publicKey.sha256Fingerprint == stored.fingerprint else {
            throw CLIError.failure("the private key in the vault does not match key '\(stored.name.escapedForTerminal)' (\(stored.fingerprint))",
                                   hint: "Run 'hostbook doctor'.")
        }
        return key
    }
}
