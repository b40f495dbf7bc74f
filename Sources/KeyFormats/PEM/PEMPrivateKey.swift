// PEM private keys through OpenSSL (docs/formats.md, "PEM and PKCS#8"): PKCS#1 RSA and SEC1 EC,
// plain or Proc-Type/DEK-Info encrypted, and PKCS#8 (RSA, EC, Ed25519), plain or
// encrypted (PBES2/PBKDF2, PBES1). Layers: armour (PEMArmor) → decryption
// (TraditionalPEMEncryption / EncryptedPKCS8) → DER (DERPrivateKeyDecoder) → the model
// (EVPKey) → PrivateKey.validate(). PEM carries no comment, so the comment is "".
public import SecureMemory

public enum PEMPrivateKey {
    /// What a PEM label says the body holds.
    enum Label {
        case pkcs1, sec1, pkcs8, encryptedPKCS8

        init(_ label: String) throws {
            switch label {
            case "RSA PRIVATE KEY": self = .pkcs1
            case "EC PRIVATE KEY": self = .sec1
            case "PRIVATE KEY": self = .pkcs8
            case "ENCRYPTED PRIVATE KEY": self = .encryptedPKCS8
            case "DSA PRIVATE KEY":
                throw KeyFormatError.unsupported("DSA keys are not supported (OpenSSH 10.0 removed them); use an Ed25519, ECDSA or RSA key")
            case "OPENSSH PRIVATE KEY":
                throw KeyFormatError.invalid("this is an OpenSSH private key, not a PEM key")
            case "PUBLIC KEY", "RSA PUBLIC KEY", "EC PUBLIC KEY":
                throw KeyFormatError.invalid("this is a public key ('\(label)'), not a private key")
            case "CERTIFICATE", "X509 CERTIFICATE":
                throw KeyFormatError.invalid("this is an X.509 certificate, not a private key")
            default:
                throw KeyFormatError.unsupported("PEM blocks labelled '\(label.prefix(40))' are not private keys hostbook reads")
            }
        }

        var format: PrivateKeyFormat {
            switch self { case .pkcs1: .pemPKCS1; case .sec1: .pemSEC1; case .pkcs8, .encryptedPKCS8: .pkcs8 }
        }

        var structure: DERPrivateKeyDecoder.Structure {
            switch self { case .pkcs1: .pkcs1; case .sec1: .sec1; case .pkcs8, .encryptedPKCS8: .pkcs8 }
        }
    }

    public static func isEncrypted(_ bytes: [UInt8]) throws -> Bool { try bytes.withUnsafeBytes { try isEncrypted($0) } }
    public static func isEncrypted(_ file: SecretBytes) throws -> Bool { try file.withUnsafeBytes { try isEncrypted($0) } }

    public static func parse(_ bytes: [UInt8], passphrase: SecretBytes?) throws -> ImportedPrivateKey {
        try bytes.withUnsafeBytes { try parse($0, passphrase: passphrase) }
    }

    /// The same, reading the file from secure memory: the base64 body is decoded from it
    /// into secure memory and OpenSSL reads the DER from there (PEMArmor).
    public static func parse(_ file: SecretBytes, passphrase: SecretBytes?) throws -> ImportedPrivateKey {
        try file.withUnsafeBytes { try parse($0, passphrase: passphrase) }
    }

    static func isEncrypted(_ bytes: UnsafeRawBufferPointer) throws -> Bool {
        let armor = try PEMArmor.parse(bytes)
        let label = try Label(armor.label)
        if label == .encryptedPKCS8 { return true }
        return try TraditionalPEMEncryption.from(armor) != nil
    }

    static func parse(_ bytes: UnsafeRawBufferPointer, passphrase: SecretBytes?) throws -> ImportedPrivateKey {
        let armor = try PEMArmor.parse(bytes)
        return try parse(armor: armor, label: try Label(armor.label), passphrase: passphrase)
    }

    /// Decrypts and checks the key of `armor`, whose label was read already.
    static func parse(armor: PEMArmor, label: Label, passphrase: SecretBytes?) throws -> ImportedPrivateKey {
        let (algorithm, cipher) = try decodeKey(armor, label, passphrase: passphrase)
        let key = PrivateKey(algorithm: algorithm, comment: "")
        try key.validate()
        return ImportedPrivateKey(key: key, format: label.format, cipher: cipher)
    }

    /// Decrypts and decodes the DER through OpenSSL, copies the key out into SecretBytes and
    /// checks the pair; the OpenSSL key object (which holds the private key in OpenSSL's
    /// memory) is local here, so it is freed as soon as this returns.
    private static func decodeKey(_ armor: PEMArmor, _ label: Label, passphrase: SecretBytes?) throws -> (PrivateKeyAlgorithm, String?) {
        let evpKey: EVPKey
        let cipher: String?

        if label == .encryptedPKCS8 {
            let envelope = try EncryptedPKCS8(der: armor.body)
            try envelope.checkSupported()
            guard let passphrase else { throw KeyFormatError.passphraseRequired }
            evpKey = try envelope.decrypt(passphrase: passphrase)
            cipher = envelope.cipherName
        } else if let encryption = try TraditionalPEMEncryption.from(armor) {
            try encryption.checkSupported()
            guard let passphrase else { throw KeyFormatError.passphraseRequired }
            let der = try encryption.decrypt(armor.body, passphrase: passphrase)
            // The padding checked out, but a wrong key still passes it about one time in
            // 256: DER that does not parse after decryption also means a wrong passphrase.
            switch der.withUnsafeBytes({ DERPrivateKeyDecoder.decode($0, as: label.structure) }) {
            case .key(let k): evpKey = k
            case .undecodable: throw KeyFormatError.wrongPassphrase
            }
            cipher = encryption.cipherName
        } else {
            switch armor.body.withUnsafeBytes({ DERPrivateKeyDecoder.decode($0, as: label.structure) }) {
            case .key(let k): evpKey = k
            case .undecodable(let reason):
                throw KeyFormatError.invalid("the \(armor.label.prefix(40)) data is damaged (\(reason))")
            }
            cipher = nil
        }

        let algorithm = try evpKey.privateKeyAlgorithm()
        try evpKey.checkKeyPair()
        return (algorithm, cipher)
    }
}
