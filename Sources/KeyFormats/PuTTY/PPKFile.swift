// PuTTY .ppk private keys, versions 2 and 3 (ssh-formats.md §7). STUB — being written.
public import SecureMemory

public enum PPKFile {
    public static func isEncrypted(_ bytes: [UInt8]) throws -> Bool {
        throw KeyFormatError.unsupported("PuTTY keys are not implemented yet")
    }

    public static func parse(_ bytes: [UInt8], passphrase: SecretBytes?) throws -> ImportedPrivateKey {
        throw KeyFormatError.unsupported("PuTTY keys are not implemented yet")
    }
}
