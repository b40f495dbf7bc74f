// PEM private keys through OpenSSL: PKCS#1 RSA, SEC1 EC (plain and Proc-Type/DEK-Info
// encrypted) and PKCS#8 (plain and PBES2 encrypted). ssh-formats.md §4. STUB — being written.
public import SecureMemory

public enum PEMPrivateKey {
    public static func isEncrypted(_ bytes: [UInt8]) throws -> Bool {
        throw KeyFormatError.unsupported("PEM keys are not implemented yet")
    }

    public static func parse(_ bytes: [UInt8], passphrase: SecretBytes?) throws -> ImportedPrivateKey {
        throw KeyFormatError.unsupported("PEM keys are not implemented yet")
    }
}
