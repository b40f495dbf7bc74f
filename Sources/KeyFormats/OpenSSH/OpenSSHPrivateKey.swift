// openssh-key-v1 private keys (PROTOCOL.key; docs/formats.md, "openssh-key-v1"), read in layers:
// armour → envelope (structure, before any cryptography) → key derivation and decryption →
// private section (check integers, key record, comment, padding) → the header's public key
// must equal the private key's → type-specific validation. Every buffer holding key
// material is SecretBytes, wiped when released on every path, including errors.
public import SecureMemory

public enum OpenSSHPrivateKey {
    /// The most bcrypt rounds hostbook writes (`keys export --rounds`). Reading accepts any
    /// count OpenSSH accepts (1 to 2³²−1), as `ssh-keygen -a` can write them.
    public static let maxBcryptRounds = 10_000

    /// The bcrypt rounds of an encrypted file, read from the envelope only (nil: no bcrypt),
    /// so a caller can say how long decryption will take before it starts.
    public static func bcryptRounds(_ bytes: [UInt8]) throws -> Int? { try bcryptRounds(blob: armoured(bytes)) }
    public static func bcryptRounds(_ file: SecretBytes) throws -> Int? { try bcryptRounds(blob: armoured(file)) }

    /// Whether the file needs a passphrase (kdf `bcrypt`), read from the envelope only.
    public static func isEncrypted(_ bytes: [UInt8]) throws -> Bool { try isEncrypted(blob: armoured(bytes)) }
    public static func isEncrypted(_ file: SecretBytes) throws -> Bool { try isEncrypted(blob: armoured(file)) }

    /// The public key from the envelope, readable without the passphrase.
    public static func publicKey(_ bytes: [UInt8]) throws -> PublicKey { try publicKey(blob: armoured(bytes)) }
    public static func publicKey(_ file: SecretBytes) throws -> PublicKey { try publicKey(blob: armoured(file)) }

    public static func parse(_ bytes: [UInt8], passphrase: SecretBytes?) throws -> ImportedPrivateKey {
        try parse(blob: armoured(bytes), passphrase: passphrase)
    }

    /// The same, reading the file from secure memory (as `keys import` and `keys export` hold it).
    public static func parse(_ file: SecretBytes, passphrase: SecretBytes?) throws -> ImportedPrivateKey {
        try parse(blob: armoured(file), passphrase: passphrase)
    }

    /// The binary blob inside the armour, in secure memory.
    private static func armoured(_ bytes: [UInt8]) throws -> SecretBytes { try OpenSSHArmour.decode(bytes) }
    static func armoured(_ file: SecretBytes) throws -> SecretBytes { try file.withUnsafeBytes { try OpenSSHArmour.decode($0) } }

    private static func bcryptRounds(blob: SecretBytes) throws -> Int? {
        let envelope = try blob.withUnsafeBytes { try OpenSSHEnvelope.parse($0) }
        if case .bcrypt(_, let rounds) = envelope.kdf { return rounds }
        return nil
    }

    private static func isEncrypted(blob: SecretBytes) throws -> Bool {
        try blob.withUnsafeBytes { try OpenSSHEnvelope.parse($0) }.isEncrypted
    }

    private static func publicKey(blob: SecretBytes) throws -> PublicKey {
        try blob.withUnsafeBytes { try OpenSSHEnvelope.parse($0) }.publicKey
    }

    private static func parse(blob: SecretBytes, passphrase: SecretBytes?) throws -> ImportedPrivateKey {
        try parse(blob: blob, envelope: blob.withUnsafeBytes { try OpenSSHEnvelope.parse($0) }, passphrase: passphrase)
    }

    /// Decrypts and checks the key of `blob`, whose envelope was read already.
    static func parse(blob: SecretBytes, envelope: OpenSSHEnvelope, passphrase: SecretBytes?) throws -> ImportedPrivateKey {
        return try blob.withUnsafeBytes { raw in
            // Say so before asking for (or spending time on) a passphrase.
            if case .dsa = envelope.publicKey.algorithm { throw OpenSSHKeyRecord.dsaUnsupported }
            let section = UnsafeRawBufferPointer(rebasing: raw[envelope.sectionRange])
            let tag = UnsafeRawBufferPointer(rebasing: raw[envelope.tagRange])
            let plaintext = try decrypt(section, tag: tag, envelope: envelope, passphrase: passphrase)
            let key = try plaintext.withUnsafeBytes {
                try OpenSSHPrivateSection.parse($0, encrypted: envelope.isEncrypted)
            }
            guard key.publicKey == envelope.publicKey else {
                throw KeyFormatError.invalid("the public key in the file header does not match the private key (damaged file)")
            }
            try key.validate()
            return ImportedPrivateKey(key: key, format: .openssh,
                                      cipher: envelope.isEncrypted ? envelope.cipher.name : nil)
        }
    }

    /// Runs the KDF and the cipher (sshkey.c private2_decrypt). Derived key and IV live only in
    /// SecretBytes.
    private static func decrypt(_ section: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer,
                                envelope: OpenSSHEnvelope, passphrase: SecretBytes?) throws -> SecretBytes {
        switch envelope.kdf {
        case .none:
            return SecretBytes(copying: section)
        case .bcrypt(let salt, let rounds):
            guard let passphrase else { throw KeyFormatError.passphraseRequired }
            // OpenSSH: bcrypt with an empty passphrase is "incorrect passphrase" (sshkey.c
            // private2_decrypt).
            guard !passphrase.isEmpty else { throw KeyFormatError.wrongPassphrase }
            let cipher = envelope.cipher
            // For cipher `none` this derives the 8 unused bytes, exactly as OpenSSH does:
            // any non-empty passphrase opens such a file.
            let keyAndIV = try BcryptPBKDF.derive(passphrase: passphrase, salt: salt,
                                                  keyLength: cipher.derivedLength, rounds: rounds)
            if cipher.isNone { return SecretBytes(copying: section) }
            return try cipher.decrypt(section, tag: tag, keyAndIV: keyAndIV)
        }
    }

    /// The armoured text OpenSSH reads. No passphrase: cipher and kdf `none` (what the vault
    /// keeps). With one: aes256-ctr + bcrypt with `rounds` rounds and a fresh 16-byte salt.
    public static func encode(_ key: PrivateKey, passphrase: SecretBytes?, rounds: Int = 16) throws -> SecretBytes {
        try encode(key, passphrase: passphrase, cipher: .defaultForWriting, rounds: rounds)
    }

    /// As `encode(_:passphrase:rounds:)` with any cipher of cipher.c `ciphers[]` (tests write
    /// every one).
    public static func encode(_ key: PrivateKey, passphrase: SecretBytes?, cipher: KeyFileCipher, rounds: Int) throws -> SecretBytes {
        guard let passphrase, !passphrase.isEmpty else {
            // ssh-keygen: an empty passphrase means cipher `none`, kdf `none`.
            let none = KeyFileCipher.named("none")!
            let section = OpenSSHPrivateSection.build(key, blockSize: none.blockSize)
            let blob = section.withUnsafeBytes {
                OpenSSHEnvelope.write(cipher: none, kdf: .none, publicKey: key.publicKey, section: $0, tag: [])
            }
            return OpenSSHArmour.encode(blob)
        }
        guard rounds >= 1, rounds <= maxBcryptRounds else {
            throw KeyFormatError.invalid("bcrypt rounds must be from 1 to \(maxBcryptRounds), not \(rounds)")
        }
        let salt = Sodium.randomBytes(count: 16)
        let keyAndIV = try BcryptPBKDF.derive(passphrase: passphrase, salt: salt, keyLength: cipher.derivedLength, rounds: rounds)
        let section = OpenSSHPrivateSection.build(key, blockSize: cipher.blockSize)
        let sealed = try cipher.encrypt(section, keyAndIV: keyAndIV)
        let blob = sealed.ciphertext.withUnsafeBytes {
            OpenSSHEnvelope.write(cipher: cipher, kdf: .bcrypt(salt: salt, rounds: rounds),
                                  publicKey: key.publicKey, section: $0, tag: sealed.tag)
        }
        return OpenSSHArmour.encode(blob)
    }
}
