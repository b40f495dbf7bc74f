// An owned OpenSSL EVP_PKEY, and the conversions between it and hostbook's key model:
// private keys read from PEM/PKCS#8 or generated, and public keys built from SSH blobs
// to verify certificate signatures. Parameters are read through the OpenSSL 3 provider
// API (EVP_PKEY_get_bn_param / get_octet_string_param); no deprecated RSA/EC_KEY calls.
internal import COpenSSL
import SecureMemory

final class EVPKey {
    let raw: OpaquePointer

    init(owning raw: OpaquePointer) { self.raw = raw }
    deinit { EVP_PKEY_free(raw) }

    func isA(_ name: String) -> Bool { EVP_PKEY_is_a(raw, name) == 1 }

    // MARK: - Reading parameters

    func bigNum(_ name: String, secret: Bool) throws -> BigNum {
        var bn: OpaquePointer? = nil
        guard EVP_PKEY_get_bn_param(raw, name, &bn) == 1, let bn else {
            OpenSSLErrors.clear()
            throw KeyFormatError.invalid("the key has no '\(name)' parameter")
        }
        return BigNum(owning: bn, secret: secret)
    }

    func hasParameter(_ name: String) -> Bool {
        var bn: OpaquePointer? = nil
        let ok = EVP_PKEY_get_bn_param(raw, name, &bn) == 1
        if let bn { BN_clear_free(bn) }
        OpenSSLErrors.clear()
        return ok
    }

    func text(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 80)
        var length = 0
        let ok = buffer.withUnsafeMutableBufferPointer {
            EVP_PKEY_get_utf8_string_param(raw, name, $0.baseAddress, $0.count, &length) == 1
        }
        OpenSSLErrors.clear()
        guard ok else { return nil }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func octets(_ name: String) -> [UInt8]? {
        var length = 0
        guard EVP_PKEY_get_octet_string_param(raw, name, nil, 0, &length) == 1, length <= 1024 else {
            OpenSSLErrors.clear(); return nil
        }
        var out = [UInt8](repeating: 0, count: length)
        let ok = out.withUnsafeMutableBufferPointer {
            EVP_PKEY_get_octet_string_param(raw, name, $0.baseAddress, $0.count, &length) == 1
        }
        OpenSSLErrors.clear()
        return ok ? Array(out.prefix(length)) : nil
    }

    /// OpenSSL's full key-pair check (EVP_PKEY_check): for RSA also the CRT values
    /// dP, dQ that hostbook's model does not keep, and the primality of p and q.
    func checkKeyPair() throws {
        guard isA("RSA") || isA("EC") else { return }
        OpenSSLErrors.clear()
        guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, raw, nil) else { throw KeyFormatError.invalid("out of memory") }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_check(ctx) == 1 else {
            let why = OpenSSLErrors.describe(default: "the key pair is inconsistent")
            throw KeyFormatError.invalid("the private key is damaged (\(why))")
        }
        OpenSSLErrors.clear()
    }

    // MARK: - EVP_PKEY → PrivateKeyAlgorithm

    /// The key's fields in hostbook's model. RSA (two primes), EC on P-256/384/521 and
    /// Ed25519 are supported; DSA and everything else is `.unsupported`.
    func privateKeyAlgorithm() throws -> PrivateKeyAlgorithm {
        if isA("RSA") {
            if hasParameter("rsa-factor3") {
                throw KeyFormatError.unsupported("multi-prime RSA keys are not supported by OpenSSH")
            }
            let n = try bigNum(OSSL_PKEY_PARAM_RSA_N, secret: false)
            let e = try bigNum(OSSL_PKEY_PARAM_RSA_E, secret: false)
            let d = try bigNum(OSSL_PKEY_PARAM_RSA_D, secret: true)
            let p = try bigNum("rsa-factor1", secret: true)
            let q = try bigNum("rsa-factor2", secret: true)
            let iqmp = try bigNum("rsa-coefficient1", secret: true)
            return .rsa(modulus: n.bytes, exponent: e.bytes, d: d.secretBytes, iqmp: iqmp.secretBytes,
                        p: p.secretBytes, q: q.secretBytes)
        }
        if isA("EC") {
            guard let groupName = text(OSSL_PKEY_PARAM_GROUP_NAME) else {
                throw KeyFormatError.unsupported("EC keys with explicit curve parameters are not supported; OpenSSH needs a named curve (P-256, P-384 or P-521)")
            }
            guard let curve = ECGroup.curve(named: groupName) else {
                throw KeyFormatError.unsupported("the EC curve '\(groupName.prefix(40))' is not supported; OpenSSH supports only P-256, P-384 and P-521")
            }
            let scalar = try bigNum(OSSL_PKEY_PARAM_PRIV_KEY, secret: true)
            guard let encoded = octets(OSSL_PKEY_PARAM_PUB_KEY) else {
                throw KeyFormatError.invalid("the EC key has no public point")
            }
            let point = try ECGroup(curve).uncompressed(encoded)
            return .ecdsa(curve: curve, point: point, scalar: scalar.secretBytes)
        }
        if isA("ED25519") {
            var length = 0
            guard EVP_PKEY_get_raw_private_key(raw, nil, &length) == 1, length == 32 else {
                OpenSSLErrors.clear()
                throw KeyFormatError.invalid("the Ed25519 private key is not 32 bytes")
            }
            let seed = SecretBytes(count: 32)
            let ok = seed.withUnsafeMutableBytes {
                EVP_PKEY_get_raw_private_key(raw, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), &length) == 1
            }
            var publicKey = [UInt8](repeating: 0, count: 32)
            var publicLength = 32
            let okPublic = publicKey.withUnsafeMutableBufferPointer {
                EVP_PKEY_get_raw_public_key(raw, $0.baseAddress, &publicLength) == 1
            }
            OpenSSLErrors.clear()
            guard ok, okPublic, publicLength == 32 else { throw KeyFormatError.invalid("could not read the Ed25519 key") }
            return .ed25519(seed: seed, publicKey: publicKey)
        }
        if isA("DSA") {
            throw KeyFormatError.unsupported("DSA keys are not supported (OpenSSH 10.0 removed them); use an Ed25519, ECDSA or RSA key")
        }
        if isA("RSA-PSS") {
            throw KeyFormatError.unsupported("RSA-PSS keys are not usable for SSH; convert to a plain RSA key")
        }
        let name = EVP_PKEY_get0_type_name(raw).map { String(cString: $0) } ?? "unknown"
        throw KeyFormatError.unsupported("\(name.prefix(40)) keys are not supported by SSH")
    }

    // MARK: - EVP_PKEY → public key

    /// The public half in hostbook's model (RSA, EC on the three NIST curves, Ed25519).
    func publicKeyAlgorithm() throws -> PublicKeyAlgorithm {
        if isA("RSA") {
            return .rsa(exponent: try bigNum(OSSL_PKEY_PARAM_RSA_E, secret: false).bytes,
                        modulus: try bigNum(OSSL_PKEY_PARAM_RSA_N, secret: false).bytes)
        }
        if isA("EC") {
            guard let groupName = text(OSSL_PKEY_PARAM_GROUP_NAME), let curve = ECGroup.curve(named: groupName) else {
                throw KeyFormatError.unsupported("the EC curve is not supported; OpenSSH supports only P-256, P-384 and P-521")
            }
            guard let encoded = octets(OSSL_PKEY_PARAM_PUB_KEY) else { throw KeyFormatError.invalid("the EC key has no public point") }
            return .ecdsa(curve: curve, point: try ECGroup(curve).uncompressed(encoded))
        }
        if isA("ED25519") {
            var publicKey = [UInt8](repeating: 0, count: 32)
            var length = 32
            let ok = publicKey.withUnsafeMutableBufferPointer { EVP_PKEY_get_raw_public_key(raw, $0.baseAddress, &length) == 1 }
            OpenSSLErrors.clear()
            guard ok, length == 32 else { throw KeyFormatError.invalid("could not read the Ed25519 public key") }
            return .ed25519(publicKey: publicKey)
        }
        if isA("DSA") {
            throw KeyFormatError.unsupported("DSA keys are not supported (OpenSSH 10.0 removed them); use an Ed25519, ECDSA or RSA key")
        }
        let name = EVP_PKEY_get0_type_name(raw).map { String(cString: $0) } ?? "unknown"
        throw KeyFormatError.unsupported("\(name.prefix(40)) keys are not supported by SSH")
    }

    /// Decodes a DER public key: `SubjectPublicKeyInfo` (any algorithm) or PKCS#1
    /// `RSAPublicKey` (structure "type-specific", key type "RSA"). Nil when it does not decode.
    static func decodePublic(_ der: [UInt8], structure: String, keyType: String?) -> EVPKey? {
        OpenSSLErrors.clear()
        defer { OpenSSLErrors.clear() }
        var pkey: OpaquePointer? = nil
        let names = CStrings()
        let selection = Int32(OSSL_KEYMGMT_SELECT_PUBLIC_KEY | OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS)
        guard !der.isEmpty, let ctx = OSSL_DECODER_CTX_new_for_pkey(&pkey, names("DER"), names(structure), keyType.map { names($0) },
                                                                    selection, nil, nil) else { return nil }
        defer { withExtendedLifetime(names) { OSSL_DECODER_CTX_free(ctx) } }
        var remaining = der.count
        let ok = der.withUnsafeBufferPointer { buf -> Bool in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return OSSL_DECODER_from_data(ctx, &p, &remaining) == 1
        }
        guard ok, remaining == 0, let pkey else {
            if let pkey { EVP_PKEY_free(pkey) }
            return nil
        }
        return EVPKey(owning: pkey)
    }

    // MARK: - Public keys for signature verification

    /// An EVP_PKEY holding only the public half of an RSA, ECDSA or DSA key.
    static func publicKey(_ key: PublicKey) throws -> EVPKey {
        guard let builder = OSSL_PARAM_BLD_new() else { throw KeyFormatError.invalid("out of memory") }
        defer { OSSL_PARAM_BLD_free(builder) }
        // The builder keeps pointers to what is pushed until OSSL_PARAM_BLD_to_param copies
        // it, so everything pushed stays alive until then; parameter names are never
        // copied, so they live in `names` until the key is made.
        let names = CStrings()
        let typeName: String
        let built: UnsafeMutablePointer<OSSL_PARAM>?
        switch key.algorithm {
        case .rsa(let e, let n):
            typeName = "RSA"
            let bnN = try BigNum.from(n), bnE = try BigNum.from(e)
            built = withExtendedLifetime((bnN, bnE)) {
                guard OSSL_PARAM_BLD_push_BN(builder, names("n"), bnN.raw) == 1,
                      OSSL_PARAM_BLD_push_BN(builder, names("e"), bnE.raw) == 1 else { return nil }
                return OSSL_PARAM_BLD_to_param(builder)
            }
        case .ecdsa(let curve, let q), .skECDSA(let curve, let q, _):
            typeName = "EC"
            built = q.withUnsafeBytes { qb in
                ECGroup.openSSLName(curve).withCString { group in
                    guard OSSL_PARAM_BLD_push_utf8_string(builder, names("group"), group, 0) == 1,
                          OSSL_PARAM_BLD_push_octet_string(builder, names("pub"), qb.baseAddress, qb.count) == 1 else { return nil }
                    return OSSL_PARAM_BLD_to_param(builder)
                }
            }
        case .dsa(let p, let q, let g, let y):
            typeName = "DSA"
            let bns = try [p, q, g, y].map { try BigNum.from($0) }
            built = withExtendedLifetime(bns) {
                for (name, bn) in zip(["p", "q", "g", "pub"], bns) where OSSL_PARAM_BLD_push_BN(builder, names(name), bn.raw) != 1 {
                    return nil
                }
                return OSSL_PARAM_BLD_to_param(builder)
            }
        default:
            throw KeyFormatError.unsupported("\(key.type) keys are not verified through OpenSSL")
        }
        guard let params = built else {
            OpenSSLErrors.clear(); throw KeyFormatError.invalid("could not build the \(key.type) key for OpenSSL")
        }
        defer { OSSL_PARAM_free(params) }
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, names(typeName), nil) else {
            OpenSSLErrors.clear(); throw KeyFormatError.unsupported("OpenSSL has no \(typeName) support")
        }
        defer { EVP_PKEY_CTX_free(ctx) }
        var pkey: OpaquePointer? = nil
        // EVP_PKEY_PUBLIC_KEY = domain parameters + other parameters + public key.
        let selection = Int32(OSSL_KEYMGMT_SELECT_PUBLIC_KEY | OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS)
                let ok = withExtendedLifetime(names) {
            EVP_PKEY_fromdata_init(ctx) == 1 && EVP_PKEY_fromdata(ctx, &pkey, selection, params) == 1
        }
        guard ok, let pkey else {
            let why = OpenSSLErrors.describe(default: "rejected by OpenSSL")
            throw KeyFormatError.invalid("the \(key.type) public key is not valid (\(why))")
        }
        return EVPKey(owning: pkey)
    }
}

/// NUL-terminated copies of strings that must outlive a call: OpenSSL keeps OSSL_PARAM
/// names by pointer, while a Swift String passed as `const char *` is only valid during
/// the call it is passed to.
final class CStrings {
    private var storage: [UnsafeMutablePointer<CChar>] = []

    func callAsFunction(_ s: String) -> UnsafePointer<CChar> {
        let utf8 = Array(s.utf8CString)
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
        p.initialize(from: utf8, count: utf8.count)
        storage.append(p)
        return UnsafePointer(p)
    }

    deinit { for p in storage { p.deallocate() } }
}
