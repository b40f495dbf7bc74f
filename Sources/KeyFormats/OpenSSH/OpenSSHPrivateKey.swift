// openssh-key-v1 private keys (PROTOCOL.key; ssh-formats.md §1). STUB — being written.
public import SecureMemory

public enum OpenSSHPrivateKey {
    public static func isEncrypted(_ bytes: [UInt8]) throws -> Bool {
        throw KeyFormatError.unsupported("openssh-key-v1 is not implemented yet")
    }

    public static func parse(_ bytes: [UInt8], passphrase: SecretBytes?) throws -> ImportedPrivateKey {
        throw KeyFormatError.unsupported("openssh-key-v1 is not implemented yet")
    }

    /// The armoured text OpenSSH reads. No passphrase: cipher and kdf `none` (what the vault
    /// keeps). With one: aes256-ctr + bcrypt with `rounds` rounds and a fresh 16-byte salt.
    public static func encode(_ key: PrivateKey, passphrase: SecretBytes?, rounds: Int = 16) throws -> SecretBytes {
        throw KeyFormatError.unsupported("openssh-key-v1 is not implemented yet")
    }
}
