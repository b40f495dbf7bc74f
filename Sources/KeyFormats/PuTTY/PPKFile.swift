// PuTTY .ppk private keys, versions 2 and 3 (docs/formats.md, "PuTTY .ppk"). Layers: text envelope
// (PPKEnvelope) → key derivation (PPKKeyDerivation) → AES-256-CBC → MAC check → the
// private blob (PPKPrivateBlob) → PrivateKey.validate().
// A MAC mismatch means a wrong passphrase when the file is encrypted, damage otherwise.
public import SecureMemory

public enum PPKFile {
    public static func isEncrypted(_ bytes: [UInt8]) throws -> Bool { try PPKEnvelope.parse(bytes).isEncrypted }
    public static func isEncrypted(_ file: SecretBytes) throws -> Bool { try file.withUnsafeBytes { try PPKEnvelope.parse($0) }.isEncrypted }

    public static func parse(_ bytes: [UInt8], passphrase: SecretBytes?) throws -> ImportedPrivateKey {
        try parse(envelope: PPKEnvelope.parse(bytes), passphrase: passphrase)
    }

    /// The same, reading the file from secure memory: the private lines are decoded from
    /// it into secure memory (PPKEnvelope), then decrypted and parsed there.
    public static func parse(_ file: SecretBytes, passphrase: SecretBytes?) throws -> ImportedPrivateKey {
        try parse(envelope: file.withUnsafeBytes { try PPKEnvelope.parse($0) }, passphrase: passphrase)
    }

    static func parse(envelope: PPKEnvelope, passphrase: SecretBytes?) throws -> ImportedPrivateKey {
        let publicKey = try PublicKey(blob: envelope.publicBlob)
        guard publicKey.type == envelope.algorithm else {
            throw KeyFormatError.invalid("key type mismatch: the header says '\(envelope.algorithm.prefix(64))' but the public key is \(publicKey.type)")
        }
        if let argon2 = envelope.argon2 { try PPKKeyDerivation.checkSupported(argon2) }

        let keys: PPKKeys
        let plaintext: SecretBytes
        if envelope.isEncrypted {
            guard let passphrase else { throw KeyFormatError.passphraseRequired }
            guard envelope.privateBlob.count % 16 == 0 else {
                throw KeyFormatError.invalid("the encrypted private key is not a whole number of AES blocks (the file is damaged)")
            }
            switch envelope.version {
            case .v3:
                guard let argon2 = envelope.argon2 else { throw KeyFormatError.invalid("the encrypted key has no Argon2 parameters") }
                keys = try PPKKeyDerivation.v3(argon2, passphrase: passphrase)
            case .v2:
                keys = PPKKeyDerivation.v2(passphrase: passphrase)
            }
            plaintext = try CBCDecryption.aes256(key: keys.cipherKey, iv: keys.iv, data: envelope.privateBlob)
        } else {
            keys = envelope.version == .v3 ? PPKKeyDerivation.v3Unencrypted() : PPKKeyDerivation.v2(passphrase: nil)
            plaintext = envelope.privateBlob
        }

        guard macMatches(envelope, plaintext: plaintext, macKey: keys.macKey) else {
            if envelope.isEncrypted { throw KeyFormatError.wrongPassphrase }
            throw KeyFormatError.invalid("the file is damaged: MAC mismatch")
        }

        let algorithm = try PPKPrivateBlob.key(publicKey: publicKey, privateBlob: plaintext)
        let key = PrivateKey(algorithm: algorithm, comment: envelope.comment)
        try key.validate()
        return ImportedPrivateKey(key: key, format: envelope.version == .v3 ? .ppk3 : .ppk2,
                                  cipher: envelope.isEncrypted ? envelope.encryption : nil)
    }

    /// MAC over string(algorithm) ‖ string(encryption) ‖ string(comment) ‖
    /// string(public blob) ‖ string(private plaintext, padding included) (PuTTY's sshpubk.c):
    /// HMAC-SHA-256 for v3, HMAC-SHA-1 for v2; compared in constant time.
    static func macMatches(_ e: PPKEnvelope, plaintext: SecretBytes, macKey: SecretBytes) -> Bool {
        var head = SSHWriter()
        head.writeString(e.algorithm)
        head.writeString(e.encryption)
        head.writeString(e.comment)
        head.writeString(e.publicBlob)
        head.writeUInt32(UInt32(plaintext.count))
        let message = SecretBytes(copying: head.bytes).appending(plaintext)
        let computed = macKey.withUnsafeBytes { k in
            message.withUnsafeBytes { m in Digest.hmac(e.version == .v3 ? .sha256 : .sha1, key: k, message: m) }
        }
        return computed.withUnsafeBytes { a in e.mac.withUnsafeBytes { b in Sodium.constantTimeEqual(a, b) } }
    }
}
