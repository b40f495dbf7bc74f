// Reads a private key file of any supported format, detected by its first line.
public import SecureMemory

public enum PrivateKeyFile {
    public enum Kind: Sendable { case openssh, pem, ppk }

    /// Which parser a file belongs to, from its armour, or nil when unrecognised.
    public static func detect(_ bytes: [UInt8]) -> Kind? {
        let head = String(decoding: bytes.prefix(64), as: UTF8.self)
        let trimmed = head.drop(while: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" })
        if trimmed.hasPrefix("-----BEGIN OPENSSH PRIVATE KEY-----") { return .openssh }
        if trimmed.hasPrefix("PuTTY-User-Key-File-") { return .ppk }
        if trimmed.hasPrefix("-----BEGIN ") { return .pem }
        // A PEM private key after a preamble (`openssl pkcs12 -nodes` writes "Bag Attributes").
        if PEMArmor.containsPrivateKeyBlock(bytes) { return .pem }
        return nil
    }

    /// Whether the file needs a passphrase, without trying one (nil when it cannot tell).
    public static func isEncrypted(_ bytes: [UInt8]) -> Bool? {
        switch detect(bytes) {
        case .openssh: return try? OpenSSHPrivateKey.isEncrypted(bytes)
        case .pem: return try? PEMPrivateKey.isEncrypted(bytes)
        case .ppk: return try? PPKFile.isEncrypted(bytes)
        case nil: return nil
        }
    }

    /// Parses and validates a private key. `passphrase` is used only when the file is
    /// encrypted; a missing one gives `.passphraseRequired`, a wrong one `.wrongPassphrase`.
    public static func parse(_ bytes: [UInt8], passphrase: SecretBytes?) throws -> ImportedPrivateKey {
        switch detect(bytes) {
        case .openssh: return try OpenSSHPrivateKey.parse(bytes, passphrase: passphrase)
        case .pem: return try PEMPrivateKey.parse(bytes, passphrase: passphrase)
        case .ppk: return try PPKFile.parse(bytes, passphrase: passphrase)
        case nil:
            throw KeyFormatError.invalid("not a private key file hostbook knows (expected OpenSSH, PEM, PKCS#8 or PuTTY .ppk)")
        }
    }
}
