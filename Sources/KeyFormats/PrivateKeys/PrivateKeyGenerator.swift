// New keys: Ed25519 from libsodium (crypto_sign_seed_keypair over a random seed kept in
// secure memory), ECDSA P-256/384/521 and RSA (e = 65537) from OpenSSL's EVP_PKEY key
// generation. Every generated key is checked with validate() before it is returned.
internal import CSodium
internal import COpenSSL
import SecureMemory

public enum KeyGenerationType: String, Sendable, CaseIterable {
    case ed25519, ecdsa, rsa
}

public enum PrivateKeyGenerator {
    public static let defaultECDSABits = 256
    public static let defaultRSABits = 3072
    public static let minimumRSABits = 2048
    public static let maximumRSABits = 16384

    /// `bits`: ecdsa 256 (default) / 384 / 521; rsa ≥ 2048 (default 3072); ignored for ed25519.
    public static func generate(_ type: KeyGenerationType, bits: Int?, comment: String) throws -> PrivateKey {
        let algorithm: PrivateKeyAlgorithm
        switch type {
        case .ed25519:
            algorithm = try ed25519()
        case .ecdsa:
            let size = bits ?? defaultECDSABits
            guard let curve = ECCurve.allCases.first(where: { $0.bits == size }) else {
                throw KeyFormatError.unsupported("ECDSA keys can be 256, 384 or 521 bits, not \(size)")
            }
            algorithm = try openSSL(name: "EC") { ctx in
                EVP_PKEY_CTX_set_group_name(ctx, ECGroup.openSSLName(curve)) == 1
            }
        case .rsa:
            let size = bits ?? defaultRSABits
            guard size >= minimumRSABits, size <= maximumRSABits else {
                throw KeyFormatError.unsupported("RSA keys must be between \(minimumRSABits) and \(maximumRSABits) bits, not \(size)")
            }
            algorithm = try openSSL(name: "RSA") { ctx in
                guard EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, Int32(size)) == 1,
                      let e = try? BigNum(word: 65537) else { return false }
                return EVP_PKEY_CTX_set1_rsa_keygen_pubexp(ctx, e.raw) == 1
            }
        }
        let key = PrivateKey(algorithm: algorithm, comment: comment)
        try key.validate()
        return key
    }

    private static func ed25519() throws -> PrivateKeyAlgorithm {
        Sodium.initialize()
        let seed = SecretBytes(count: 32)
        seed.withUnsafeMutableBytes { Sodium.randomBytes($0) }
        let expanded = SecretBytes(count: 64)
        var publicKey = [UInt8](repeating: 0, count: 32)
        let status = seed.withUnsafeBytes { s in
            expanded.withUnsafeMutableBytes { sk in
                publicKey.withUnsafeMutableBufferPointer { pk in
                    crypto_sign_seed_keypair(pk.baseAddress!, sk.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                             s.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
        }
        guard status == 0 else { throw KeyFormatError.invalid("libsodium could not make an Ed25519 key") }
        return .ed25519(seed: seed, publicKey: publicKey)
    }

    private static func openSSL(name: String, configure: (OpaquePointer) -> Bool) throws -> PrivateKeyAlgorithm {
        OpenSSLErrors.clear()
        // The context keeps the key type name by pointer: it must outlive the context.
        let names = CStrings()
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, names(name), nil) else {
            throw KeyFormatError.unsupported("OpenSSL cannot make \(name) keys (\(OpenSSLErrors.describe(default: "no provider")))")
        }
        defer { EVP_PKEY_CTX_free(ctx) }
        var pkey: OpaquePointer? = nil
        let ok = withExtendedLifetime(names) {
            EVP_PKEY_keygen_init(ctx) == 1 && configure(ctx) && EVP_PKEY_generate(ctx, &pkey) == 1
        }
        guard ok, let pkey else {
            throw KeyFormatError.invalid("OpenSSL could not generate the \(name) key (\(OpenSSLErrors.describe(default: "unknown error")))")
        }
        return try EVPKey(owning: pkey).privateKeyAlgorithm()
    }
}
