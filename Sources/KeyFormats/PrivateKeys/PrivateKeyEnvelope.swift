// A private key file read once as far as it can be without a passphrase (what `keys import`
// needs before it asks for one): the format, and its structure, decoded into secure memory
// and kept: the openssh-key-v1 armour and envelope (cipher, KDF and bcrypt rounds, the
// public key), the PEM armour and label, the PuTTY envelope. Decrypting, with any number of
// passphrase attempts, starts from what was read here: the file's structure is never parsed
// again. The errors are those of PrivateKeyFile.parse, in the same order.
public import SecureMemory

public struct PrivateKeyEnvelope {
    public let kind: PrivateKeyFile.Kind
    private let opened: Opened

    private enum Opened {
        case openssh(blob: SecretBytes, envelope: OpenSSHEnvelope)
        case pem(armor: PEMArmor, label: PEMPrivateKey.Label)
        case ppk(PPKEnvelope)
    }

    /// Reads the structure of `file` (in secure memory). Throws the KeyFormatError of a file
    /// that is no key hostbook reads, or a damaged one.
    public static func open(_ file: SecretBytes) throws -> PrivateKeyEnvelope {
        switch PrivateKeyFile.detect(file) {
        case .openssh:
            let blob = try OpenSSHPrivateKey.armoured(file)
            let envelope = try blob.withUnsafeBytes { try OpenSSHEnvelope.parse($0) }
            return PrivateKeyEnvelope(kind: .openssh, opened: .openssh(blob: blob, envelope: envelope))
        case .pem:
            let armor = try file.withUnsafeBytes { try PEMArmor.parse($0) }
            return PrivateKeyEnvelope(kind: .pem, opened: .pem(armor: armor, label: try PEMPrivateKey.Label(armor.label)))
        case .ppk:
            return PrivateKeyEnvelope(kind: .ppk, opened: .ppk(try file.withUnsafeBytes { try PPKEnvelope.parse($0) }))
        case nil:
            throw KeyFormatError.invalid("not a private key file hostbook knows (expected OpenSSH, PEM, PKCS#8 or PuTTY .ppk)")
        }
    }

    /// The public key an openssh-key-v1 file shows in its envelope, readable without the
    /// passphrase (nil for the other formats).
    public var publicKey: PublicKey? {
        if case .openssh(_, let envelope) = opened { return envelope.publicKey }
        return nil
    }

    /// The bcrypt rounds of an encrypted openssh-key-v1 file (nil: no bcrypt), so a caller can
    /// say how long decryption will take before it starts.
    public var bcryptRounds: Int? {
        if case .openssh(_, let envelope) = opened, case .bcrypt(_, let rounds) = envelope.kdf { return rounds }
        return nil
    }

    /// Parses and validates the key: `passphrase` is used only when the file is encrypted; a
    /// missing one gives `.passphraseRequired`, a wrong one `.wrongPassphrase`.
    public func decrypt(passphrase: SecretBytes?) throws -> ImportedPrivateKey {
        switch opened {
        case .openssh(let blob, let envelope): try OpenSSHPrivateKey.parse(blob: blob, envelope: envelope, passphrase: passphrase)
        case .pem(let armor, let label): try PEMPrivateKey.parse(armor: armor, label: label, passphrase: passphrase)
        case .ppk(let envelope): try PPKFile.parse(envelope: envelope, passphrase: passphrase)
        }
    }
}
