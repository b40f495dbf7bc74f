// Reads a private key file of any supported format, detected by its first line.
public import SecureMemory

public enum PrivateKeyFile {
    public enum Kind: Sendable { case openssh, pem, ppk }

    /// Which parser a file belongs to, from its armour, or nil when unrecognised.
    public static func detect(_ bytes: [UInt8]) -> Kind? { bytes.withUnsafeBytes { detect($0) } }
    public static func detect(_ file: SecretBytes) -> Kind? { file.withUnsafeBytes { detect($0) } }

    static func detect(_ bytes: UnsafeRawBufferPointer) -> Kind? {
        var start = 0
        while start < bytes.count, [0x20, 0x0a, 0x0d, 0x09].contains(bytes[start]) { start += 1 }
        let head = bytes[start...]
        func starts(_ prefix: String) -> Bool { head.starts(with: prefix.utf8) }
        if starts("-----BEGIN OPENSSH PRIVATE KEY-----") { return .openssh }
        if starts("PuTTY-User-Key-File-") { return .ppk }
        if starts("-----BEGIN ") { return .pem }
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

    /// The same for a file held in secure memory.
    public static func isEncrypted(_ file: SecretBytes) -> Bool? {
        switch detect(file) {
        case .openssh: return try? OpenSSHPrivateKey.isEncrypted(file)
        case .pem: return try? PEMPrivateKey.isEncrypted(file)
        case .ppk: return try? PPKFile.isEncrypted(file)
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
        case nil: throw unknown
        }
    }

    /// The same, reading the file from secure memory (what `keys import` does): no parser
    /// copies private material into an Array or a String on the way.
    public static func parse(_ file: SecretBytes, passphrase: SecretBytes?) throws -> ImportedPrivateKey {
        switch detect(file) {
        case .openssh: return try OpenSSHPrivateKey.parse(file, passphrase: passphrase)
        case .pem: return try PEMPrivateKey.parse(file, passphrase: passphrase)
        case .ppk: return try PPKFile.parse(file, passphrase: passphrase)
        case nil: throw unknown
        }
    }

    private static let unknown = KeyFormatError.invalid("not a private key file hostbook knows (expected OpenSSH, PEM, PKCS#8 or PuTTY .ppk)")
}
