// Makes an OpenSSH certificate (PROTOCOL.certkeys; the layout is in Certificate.swift): the
// fields a CA chooses, the certified key's fields, the CA's public key, and the CA's
// signature over all of them, made by PrivateKey.sign (libsodium for Ed25519, libcrypto for
// ECDSA and RSA). An RSA CA signs with rsa-sha2-512, as ssh-keygen does. The result is read
// back through Certificate(blob:) and its signature verified before it is returned.

public struct CertificateFields: Sendable, Equatable {
    public var key: PublicKey
    public var role: Certificate.Role
    public var serial: UInt64
    public var keyID: String
    /// Empty means any principal (ssh-keygen without -n).
    public var principals: [String]
    public var validAfter: UInt64
    public var validBefore: UInt64
    public var options: CertificateOptions

    public init(key: PublicKey, role: Certificate.Role, serial: UInt64, keyID: String, principals: [String],
                validAfter: UInt64, validBefore: UInt64, options: CertificateOptions) {
        self.key = key
        self.role = role
        self.serial = serial
        self.keyID = keyID
        self.principals = principals
        self.validAfter = validAfter
        self.validBefore = validBefore
        self.options = options
    }
}

public enum CertificateEncoder {
    /// The certificate type that certifies keys of `baseType`, or nil when OpenSSH has none.
    public static func certificateType(for baseType: String) -> String? {
        let candidates = ["ssh-ed25519", "ssh-rsa", "ssh-dss", "sk-ssh-ed25519", "sk-ecdsa-sha2-nistp256"]
            + ECCurve.allCases.map(\.keyType)
        return candidates.map { $0 + Certificate.suffix }.first { Certificate.baseType(of: $0) == baseType }
    }

    /// Signs `fields` with `ca`; `nonce` is 32 random bytes unless a test fixes it.
    public static func sign(_ fields: CertificateFields, with ca: PrivateKey,
                            nonce: [UInt8] = RandomBytes.generate(32)) throws -> Certificate {
        guard let type = certificateType(for: fields.key.type) else {
            throw KeyFormatError.unsupported("keys of type \(fields.key.type) cannot be certified")
        }
        guard fields.validAfter < fields.validBefore else {
            throw KeyFormatError.invalid("the certificate's validity ends before it starts")
        }
        var w = SSHWriter()
        w.writeString(type)
        w.writeString(nonce)
        // The certified key's fields: its blob without the leading type string.
        var keyReader = SSHReader(fields.key.blob)
        _ = try keyReader.readString()
        w.writeRaw(fields.key.blob[keyReader.offset...])
        w.writeUInt64(fields.serial)
        w.writeUInt32(fields.role.rawValue)
        w.writeString(fields.keyID)
        var principals = SSHWriter()
        for p in fields.principals { principals.writeString(p) }
        w.writeString(principals.bytes)
        w.writeUInt64(fields.validAfter)
        w.writeUInt64(fields.validBefore)
        w.writeString(fields.options.criticalOptionsField)
        w.writeString(fields.options.extensionsField)
        w.writeString([UInt8]()) // reserved
        w.writeString(ca.publicKey.blob)
        let signature = try ca.sign(w.bytes, rsaHash: .sha512)
        w.writeString(signature)
        let certificate = try Certificate(blob: w.bytes)
        guard certificate.verifySignature() else {
            throw KeyFormatError.invalid("the new certificate's signature does not verify")
        }
        return certificate
    }
}
