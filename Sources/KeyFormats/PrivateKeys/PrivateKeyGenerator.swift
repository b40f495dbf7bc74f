// New keys: Ed25519 (libsodium), ECDSA P-256/384/521 and RSA (OpenSSL). STUB — being written.

public enum KeyGenerationType: String, Sendable, CaseIterable {
    case ed25519, ecdsa, rsa
}

public enum PrivateKeyGenerator {
    /// `bits`: ecdsa 256 (default) / 384 / 521; rsa ≥ 2048 (default 3072); ignored for ed25519.
    public static func generate(_ type: KeyGenerationType, bits: Int?, comment: String) throws -> PrivateKey {
        throw KeyFormatError.unsupported("key generation is not implemented yet")
    }
}
