// Consistency checks every private key passes before hostbook accepts it (sshkey.c,
// Go's ssh/keys.go): the public half must be the one the private half implies.
//   Ed25519: the public key derived from the seed (crypto_sign_seed_keypair) is the stored one.
//   ECDSA:   0 < d < n (the group order) and d·G = Q.
//   RSA:     n = p·q, e·d ≡ 1 (mod lcm(p−1, q−1)), iqmp·q ≡ 1 (mod p), n ≥ 1024 bits.
//   sk-*:    nothing secret to check (the authenticator holds the key).
internal import CSodium
internal import COpenSSL
import SecureMemory

extension PrivateKey {
    /// Throws `.invalid` with the reason when the key is inconsistent.
    public func validate() throws {
        switch algorithm {
        case .ed25519(let seed, let publicKey):
            try Self.validateEd25519(seed: seed, publicKey: publicKey)
        case .ecdsa(let curve, let point, let scalar):
            try Self.validateECDSA(curve: curve, point: point, scalar: scalar)
        case .rsa(let n, let e, let d, let iqmp, let p, let q):
            try Self.validateRSA(n: n, e: e, d: d, iqmp: iqmp, p: p, q: q)
        case .skEd25519, .skECDSA:
            return
        }
    }

    private static func validateEd25519(seed: SecretBytes, publicKey: [UInt8]) throws {
        guard seed.count == 32 else { throw KeyFormatError.invalid("the Ed25519 seed must be 32 bytes, not \(seed.count)") }
        guard publicKey.count == 32 else { throw KeyFormatError.invalid("the Ed25519 public key must be 32 bytes, not \(publicKey.count)") }
        Sodium.initialize()
        var derived = [UInt8](repeating: 0, count: 32)
        let expanded = SecretBytes(count: 64)
        let status = seed.withUnsafeBytes { s in
            expanded.withUnsafeMutableBytes { sk in
                derived.withUnsafeMutableBufferPointer { pk in
                    crypto_sign_seed_keypair(pk.baseAddress!, sk.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                             s.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
        }
        guard status == 0, derived == publicKey else {
            throw KeyFormatError.invalid("the Ed25519 public key does not belong to the private key")
        }
    }

    private static func validateECDSA(curve: ECCurve, point: [UInt8], scalar: SecretBytes) throws {
        let group = try ECGroup(curve)
        let d = try BigNum.from(scalar)
        let order = try group.order()
        guard !d.isZero, BigNum.compare(d, order) < 0 else {
            throw KeyFormatError.invalid("the ECDSA private scalar is out of range for \(curve.rawValue)")
        }
        guard point.count == curve.pointLength, point.first == 0x04 else {
            throw KeyFormatError.invalid("the ECDSA public point is not an uncompressed \(curve.rawValue) point")
        }
        guard try group.multiplyGenerator(d) == point else {
            throw KeyFormatError.invalid("the ECDSA public point does not belong to the private key (d·G ≠ Q)")
        }
    }

    private static func validateRSA(n: [UInt8], e: [UInt8], d: SecretBytes, iqmp: SecretBytes,
                                    p: SecretBytes, q: SecretBytes) throws {
        let bits = PublicKey.bitLength(n)
        guard bits >= 1024 else { throw KeyFormatError.invalid("RSA key of \(bits) bits is too small (OpenSSH requires at least 1024)") }
        guard bits <= 16384 else { throw KeyFormatError.invalid("RSA key of \(bits) bits is too large (OpenSSH allows at most 16384)") }
        let bnN = try BigNum.from(n), bnE = try BigNum.from(e)
        let bnD = try BigNum.from(d), bnP = try BigNum.from(p), bnQ = try BigNum.from(q), bnIQMP = try BigNum.from(iqmp)
        for (value, name) in [(bnE, "e"), (bnD, "d"), (bnP, "p"), (bnQ, "q"), (bnIQMP, "iqmp")] where value.isZero || value.isOne {
            throw KeyFormatError.invalid("the RSA parameter \(name) is \(value.isZero ? 0 : 1)")
        }
        let ctx = try BigNumContext()
        let one = try BigNum(word: 1)

        // n = p·q
        let product = try BigNum.result(secret: true)
        guard BN_mul(product.raw, bnP.raw, bnQ.raw, ctx.raw) == 1 else { throw arithmetic() }
        guard BigNum.compare(product, bnN) == 0 else {
            throw KeyFormatError.invalid("the RSA modulus is not the product of the primes p and q")
        }

        // iqmp·q ≡ 1 (mod p)
        let crt = try BigNum.result(secret: true)
        guard BN_mod_mul(crt.raw, bnIQMP.raw, bnQ.raw, bnP.raw, ctx.raw) == 1 else { throw arithmetic() }
        guard crt.isOne else { throw KeyFormatError.invalid("the RSA coefficient iqmp is not q⁻¹ mod p") }

        // e·d ≡ 1 (mod lcm(p−1, q−1)); λ divides φ, so keys made with φ pass too.
        let p1 = try BigNum.result(secret: true), q1 = try BigNum.result(secret: true)
        guard BN_sub(p1.raw, bnP.raw, one.raw) == 1, BN_sub(q1.raw, bnQ.raw, one.raw) == 1 else { throw arithmetic() }
        let phi = try BigNum.result(secret: true), gcd = try BigNum.result(secret: true)
        let lambda = try BigNum.result(secret: true), rem = try BigNum.result(secret: true)
        guard BN_mul(phi.raw, p1.raw, q1.raw, ctx.raw) == 1,
              BN_gcd(gcd.raw, p1.raw, q1.raw, ctx.raw) == 1,
              BN_div(lambda.raw, rem.raw, phi.raw, gcd.raw, ctx.raw) == 1 else { throw arithmetic() }
        let ed = try BigNum.result(secret: true)
        guard BN_mod_mul(ed.raw, bnE.raw, bnD.raw, lambda.raw, ctx.raw) == 1 else { throw arithmetic() }
        guard ed.isOne else {
            throw KeyFormatError.invalid("the RSA private exponent d does not match the public exponent e")
        }
    }

    private static func arithmetic() -> KeyFormatError {
        let why = OpenSSLErrors.describe(default: "arithmetic failed")
        return KeyFormatError.invalid("could not check the RSA key (\(why))")
    }
}
