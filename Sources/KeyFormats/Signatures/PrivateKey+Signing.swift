// Makes the SSH signature blob an agent returns (docs/formats.md, "Signatures"):
// `string algorithm`, `string signature`.
//   ssh-ed25519          libsodium crypto_sign_detached over the raw data (PureEdDSA)
//   ecdsa-sha2-nistp*    OpenSSL EVP_DigestSign with SHA-256/384/512; the DER ECDSA-Sig-Value
//                        becomes `mpint r ‖ mpint s`
//   rsa-sha2-256/512     OpenSSL PKCS#1 v1.5; the signature is left-padded to the modulus
//                        length (ssh-rsa with SHA-1 only when asked for explicitly)
// The private halves go to OpenSSL as secure BIGNUMs and are freed with BN_clear_free.
internal import CSodium
internal import COpenSSL
import SecureMemory

/// The RSA signature algorithms (agent sign flags 2 and 4; the old flag 0 means ssh-rsa).
public enum RSASignatureHash: Sendable, Equatable {
    case sha1, sha256, sha512

    public var algorithmName: String {
        switch self { case .sha1: "ssh-rsa"; case .sha256: "rsa-sha2-256"; case .sha512: "rsa-sha2-512" }
    }
}

extension PrivateKey {
    /// Signs `data` and returns the SSH signature blob. `rsaHash` matters only for RSA keys.
    /// Security-key (sk-*) keys cannot be signed with here: the authenticator holds them.
    public func sign(_ data: [UInt8], rsaHash: RSASignatureHash = .sha512) throws -> [UInt8] {
        var w = SSHWriter()
        switch algorithm {
        case .ed25519(let seed, let publicKey):
            w.writeString(PublicKey.ed25519Type)
            w.writeString(try Self.ed25519Signature(seed: seed, publicKey: publicKey, data: data))
        case .ecdsa(let curve, let point, let scalar):
            let der = try Self.evpSign(try Self.ecKey(curve: curve, point: point, scalar: scalar), md: Self.digest(for: curve), data: data)
            let (r, s) = try Self.ecdsaRS(der)
            var inner = SSHWriter()
            inner.writeMPInt(unsigned: r)
            inner.writeMPInt(unsigned: s)
            w.writeString(curve.keyType)
            w.writeString(inner.bytes)
        case .rsa(let n, let e, let d, let iqmp, let p, let q):
            let md: OpaquePointer? = switch rsaHash { case .sha1: EVP_sha1(); case .sha256: EVP_sha256(); case .sha512: EVP_sha512() }
            let signature = try Self.evpSign(try Self.rsaKey(n: n, e: e, d: d, iqmp: iqmp, p: p, q: q), md: md, data: data)
            let width = (PublicKey.bitLength(n) + 7) / 8
            guard signature.count <= width else { throw KeyFormatError.invalid("the RSA signature is longer than the modulus") }
            w.writeString(rsaHash.algorithmName)
            w.writeString([UInt8](repeating: 0, count: width - signature.count) + signature)
        case .skEd25519, .skECDSA:
            throw KeyFormatError.unsupported("security-key (sk-*) keys are signed by their authenticator")
        }
        return w.bytes
    }

    private static func ed25519Signature(seed: SecretBytes, publicKey: [UInt8], data: [UInt8]) throws -> [UInt8] {
        guard seed.count == 32, publicKey.count == 32 else { throw KeyFormatError.invalid("the Ed25519 key has the wrong length") }
        Sodium.initialize()
        let secretKey = SecretBytes(count: 64)
        var derived = [UInt8](repeating: 0, count: 32)
        var signature = [UInt8](repeating: 0, count: 64)
        let status = seed.withUnsafeBytes { s in
            secretKey.withUnsafeMutableBytes { sk -> Int32 in
                let skp = sk.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let made = derived.withUnsafeMutableBufferPointer {
                    crypto_sign_seed_keypair($0.baseAddress!, skp, s.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
                guard made == 0 else { return made }
                return signature.withUnsafeMutableBufferPointer { sig in
                    data.withUnsafeBufferPointer { m in
                        crypto_sign_detached(sig.baseAddress!, nil, m.baseAddress, UInt64(m.count), skp)
                    }
                }
            }
        }
        guard status == 0, derived == publicKey else { throw KeyFormatError.invalid("the Ed25519 key could not sign") }
        return signature
    }

    private static func digest(for curve: ECCurve) -> OpaquePointer? {
        switch curve { case .p256: EVP_sha256(); case .p384: EVP_sha384(); case .p521: EVP_sha512() }
    }

    /// An EVP_PKEY key pair from the curve, public point and private scalar.
    private static func ecKey(curve: ECCurve, point: [UInt8], scalar: SecretBytes) throws -> EVPKey {
        let d = try BigNum.from(scalar)
        return try fromData("EC") { builder, names in
            point.withUnsafeBytes { qb in
                ECGroup.openSSLName(curve).withCString { group in
                    OSSL_PARAM_BLD_push_utf8_string(builder, names("group"), group, 0) == 1
                        && OSSL_PARAM_BLD_push_octet_string(builder, names("pub"), qb.baseAddress, qb.count) == 1
                        && OSSL_PARAM_BLD_push_BN(builder, names("priv"), d.raw) == 1
                        ? OSSL_PARAM_BLD_to_param(builder) : nil
                }
            }
        }
    }

    /// An EVP_PKEY RSA key pair with the CRT values OpenSSL wants (d mod p−1, d mod q−1).
    private static func rsaKey(n: [UInt8], e: [UInt8], d: SecretBytes, iqmp: SecretBytes, p: SecretBytes, q: SecretBytes) throws -> EVPKey {
        let bnN = try BigNum.from(n), bnE = try BigNum.from(e)
        let bnD = try BigNum.from(d), bnP = try BigNum.from(p), bnQ = try BigNum.from(q), bnIQMP = try BigNum.from(iqmp)
        let ctx = try BigNumContext()
        let one = try BigNum(word: 1)
        let p1 = try BigNum.result(secret: true), q1 = try BigNum.result(secret: true)
        let dP = try BigNum.result(secret: true), dQ = try BigNum.result(secret: true)
        guard BN_sub(p1.raw, bnP.raw, one.raw) == 1, BN_sub(q1.raw, bnQ.raw, one.raw) == 1,
              BN_nnmod(dP.raw, bnD.raw, p1.raw, ctx.raw) == 1, BN_nnmod(dQ.raw, bnD.raw, q1.raw, ctx.raw) == 1 else {
            OpenSSLErrors.clear()
            throw KeyFormatError.invalid("the RSA key's CRT values could not be computed")
        }
        return try fromData("RSA") { builder, names in
            let pushes: [(String, BigNum)] = [("n", bnN), ("e", bnE), ("d", bnD), ("rsa-factor1", bnP), ("rsa-factor2", bnQ),
                                               ("rsa-exponent1", dP), ("rsa-exponent2", dQ), ("rsa-coefficient1", bnIQMP)]
            for (name, bn) in pushes where OSSL_PARAM_BLD_push_BN(builder, names(name), bn.raw) != 1 { return nil }
            return OSSL_PARAM_BLD_to_param(builder)
        }
    }

    /// Builds an EVP_PKEY key pair of `typeName` from the parameters `push` adds.
    private static func fromData(_ typeName: String,
                                 _ push: (OpaquePointer, CStrings) -> UnsafeMutablePointer<OSSL_PARAM>?) throws -> EVPKey {
        guard let builder = OSSL_PARAM_BLD_new() else { throw KeyFormatError.invalid("out of memory") }
        defer { OSSL_PARAM_BLD_free(builder) }
        let names = CStrings()
        guard let params = push(builder, names) else {
            OpenSSLErrors.clear(); throw KeyFormatError.invalid("could not build the \(typeName) key for OpenSSL")
        }
        defer { OSSL_PARAM_free(params) }
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, names(typeName), nil) else {
            OpenSSLErrors.clear(); throw KeyFormatError.unsupported("OpenSSL has no \(typeName) support")
        }
        defer { EVP_PKEY_CTX_free(ctx) }
        var pkey: OpaquePointer? = nil
        let selection = Int32(OSSL_KEYMGMT_SELECT_KEYPAIR | OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS)
        let ok = withExtendedLifetime(names) {
            EVP_PKEY_fromdata_init(ctx) == 1 && EVP_PKEY_fromdata(ctx, &pkey, selection, params) == 1
        }
        guard ok, let pkey else {
            let why = OpenSSLErrors.describe(default: "rejected by OpenSSL")
            throw KeyFormatError.invalid("the \(typeName) private key is not usable (\(why))")
        }
        return EVPKey(owning: pkey)
    }

    private static func evpSign(_ key: EVPKey, md: OpaquePointer?, data: [UInt8]) throws -> [UInt8] {
        OpenSSLErrors.clear()
        guard let ctx = EVP_MD_CTX_new() else { throw KeyFormatError.invalid("out of memory") }
        defer { EVP_MD_CTX_free(ctx) }
        var length = 0
        let sized = data.withUnsafeBufferPointer { m in
            EVP_DigestSignInit(ctx, nil, md, nil, key.raw) == 1
                && EVP_DigestSign(ctx, nil, &length, m.baseAddress, m.count) == 1
        }
        guard sized, length > 0 else { throw KeyFormatError.invalid("OpenSSL could not sign (\(OpenSSLErrors.describe(default: "no reason")))") }
        var out = [UInt8](repeating: 0, count: length)
        let signed = out.withUnsafeMutableBufferPointer { o in
            data.withUnsafeBufferPointer { m in EVP_DigestSign(ctx, o.baseAddress, &length, m.baseAddress, m.count) == 1 }
        }
        guard signed else { throw KeyFormatError.invalid("OpenSSL could not sign (\(OpenSSLErrors.describe(default: "no reason")))") }
        return Array(out.prefix(length))
    }

    /// r and s (big-endian magnitudes) from a DER ECDSA-Sig-Value.
    private static func ecdsaRS(_ der: [UInt8]) throws -> ([UInt8], [UInt8]) {
        let sig = der.withUnsafeBufferPointer { buf -> OpaquePointer? in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_ECDSA_SIG(nil, &p, buf.count)
        }
        guard let sig else { OpenSSLErrors.clear(); throw KeyFormatError.invalid("OpenSSL returned a malformed ECDSA signature") }
        defer { ECDSA_SIG_free(sig) }
        func magnitude(_ bn: OpaquePointer?) -> [UInt8] {
            guard let bn else { return [] }
            var out = [UInt8](repeating: 0, count: (Int(BN_num_bits(bn)) + 7) / 8)
            out.withUnsafeMutableBufferPointer { _ = BN_bn2bin(bn, $0.baseAddress) }
            return out
        }
        return (magnitude(ECDSA_SIG_get0_r(sig)), magnitude(ECDSA_SIG_get0_s(sig)))
    }
}
