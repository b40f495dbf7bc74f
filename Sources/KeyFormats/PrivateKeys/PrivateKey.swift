// A private key of any supported algorithm, independent of the file format it came from.
// Secret fields live in `SecretBytes` (libsodium secure memory, wiped on release).
public import SecureMemory

public enum PrivateKeyAlgorithm: @unchecked Sendable {
    /// Ed25519: the 32-byte seed (secret) and the 32-byte public key.
    case ed25519(seed: SecretBytes, publicKey: [UInt8])
    /// ECDSA: uncompressed public point and the private scalar d (big-endian, no leading zeros).
    case ecdsa(curve: ECCurve, point: [UInt8], scalar: SecretBytes)
    /// RSA: public n, e; secret d, iqmp (q⁻¹ mod p), p, q — all big-endian magnitudes.
    case rsa(modulus: [UInt8], exponent: [UInt8], d: SecretBytes, iqmp: SecretBytes, p: SecretBytes, q: SecretBytes)
    /// FIDO security-key backed keys: no secret material here, only the handle.
    case skEd25519(publicKey: [UInt8], application: String, flags: UInt8, keyHandle: [UInt8], reserved: [UInt8])
    case skECDSA(curve: ECCurve, point: [UInt8], application: String, flags: UInt8, keyHandle: [UInt8], reserved: [UInt8])
}

public struct PrivateKey: @unchecked Sendable {
    public let algorithm: PrivateKeyAlgorithm
    public var comment: String

    public init(algorithm: PrivateKeyAlgorithm, comment: String) {
        self.algorithm = algorithm
        self.comment = comment
    }

    /// The public half, built from the private key's own public fields.
    public var publicKey: PublicKey {
        switch algorithm {
        case .ed25519(_, let pk): PublicKey(.ed25519(publicKey: pk))
        case .ecdsa(let c, let q, _): PublicKey(.ecdsa(curve: c, point: q))
        case .rsa(let n, let e, _, _, _, _): PublicKey(.rsa(exponent: e, modulus: n))
        case .skEd25519(let pk, let app, _, _, _): PublicKey(.skEd25519(publicKey: pk, application: app))
        case .skECDSA(let c, let q, let app, _, _, _): PublicKey(.skECDSA(curve: c, point: q, application: app))
        }
    }

    public var needsSecurityKey: Bool { publicKey.needsSecurityKey }
}

/// The file formats a private key can be read from (`keys show` reports it as `format`).
public enum PrivateKeyFormat: String, Sendable, CaseIterable {
    case openssh = "openssh-key-v1"
    case pemPKCS1 = "pem-pkcs1"
    case pemSEC1 = "pem-sec1"
    case pkcs8 = "pkcs8"
    case ppk2 = "ppk-v2"
    case ppk3 = "ppk-v3"
}

/// A private key as read from a file, with how it was stored there.
public struct ImportedPrivateKey: @unchecked Sendable {
    public let key: PrivateKey
    public let format: PrivateKeyFormat
    /// The cipher the file was encrypted with (`aes256-ctr`, `AES-128-CBC`, ...), or nil.
    public let cipher: String?

    public init(key: PrivateKey, format: PrivateKeyFormat, cipher: String?) {
        self.key = key
        self.format = format
        self.cipher = cipher
    }

    public var wasEncrypted: Bool { cipher != nil }
}
