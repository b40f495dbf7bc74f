// RSA (PKCS#1 v1.5) and ECDSA signature verification through OpenSSL's EVP_DigestVerify,
// from SSH encodings: an RSA signature is the raw big-endian value (OpenSSH accepts it
// shorter than the modulus and pads it); an ECDSA signature is mpint r ‖ mpint s, turned
// into the DER ECDSA-Sig-Value OpenSSL expects.
internal import COpenSSL

enum SignatureVerifier {
    enum RSADigest {
        case sha1, sha256, sha512

        init?(algorithm: String) {
            switch algorithm {
            case "ssh-rsa": self = .sha1
            case "rsa-sha2-256": self = .sha256
            case "rsa-sha2-512": self = .sha512
            default: return nil
            }
        }

        var md: OpaquePointer? {
            switch self { case .sha1: EVP_sha1(); case .sha256: EVP_sha256(); case .sha512: EVP_sha512() }
        }
    }

    static func rsa(_ key: PublicKey, modulus: [UInt8], digest: RSADigest, signature: [UInt8], message: [UInt8]) -> Bool {
        let width = (PublicKey.bitLength(modulus) + 7) / 8
        guard !signature.isEmpty, signature.count <= width else { return false }
        let padded = [UInt8](repeating: 0, count: width - signature.count) + signature
        guard let evp = try? EVPKey.publicKey(key) else { return false }
        return verify(evp, md: digest.md, der: padded, message: message)
    }

    static func ecdsa(_ key: PublicKey, curve: ECCurve, sshSignature: [UInt8], message: [UInt8]) -> Bool {
        var r = SSHReader(sshSignature)
        guard let rBytes = try? r.readMPInt(), let sBytes = try? r.readMPInt(), r.isAtEnd,
              !rBytes.isEmpty, !sBytes.isEmpty,
              rBytes.count <= curve.scalarLength, sBytes.count <= curve.scalarLength,
              let der = ecdsaDER(r: rBytes, s: sBytes),
              let evp = try? EVPKey.publicKey(key) else { return false }
        let md: OpaquePointer? = switch curve { case .p256: EVP_sha256(); case .p384: EVP_sha384(); case .p521: EVP_sha512() }
        return verify(evp, md: md, der: der, message: message)
    }

    /// ssh-dss (RFC 4253 §6.6): 40 bytes, r ‖ s as 20-byte big-endian integers, over SHA-1.
    /// The DER form is the same SEQUENCE { INTEGER r, INTEGER s } as ECDSA's.
    static func dsa(_ key: PublicKey, signature: [UInt8], message: [UInt8]) -> Bool {
        guard signature.count == 40 else { return false }
        let r = Array(signature[0..<20].drop(while: { $0 == 0 })), s = Array(signature[20..<40].drop(while: { $0 == 0 }))
        guard !r.isEmpty, !s.isEmpty, let der = ecdsaDER(r: r, s: s), let evp = try? EVPKey.publicKey(key) else { return false }
        return verify(evp, md: EVP_sha1(), der: der, message: message)
    }

    /// DER SEQUENCE { INTEGER r, INTEGER s } (ECDSA-Sig-Value, and DSA's Dss-Sig-Value).
    private static func ecdsaDER(r: [UInt8], s: [UInt8]) -> [UInt8]? {
        guard let sig = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(sig) }
        let bnR = r.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        let bnS = s.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        guard let bnR, let bnS else {
            if let bnR { BN_free(bnR) }
            if let bnS { BN_free(bnS) }
            return nil
        }
        guard ECDSA_SIG_set0(sig, bnR, bnS) == 1 else { BN_free(bnR); BN_free(bnS); return nil }
        let length = i2d_ECDSA_SIG(sig, nil)
        guard length > 0 else { OpenSSLErrors.clear(); return nil }
        var out = [UInt8](repeating: 0, count: Int(length))
        let written = out.withUnsafeMutableBufferPointer { buf -> Int32 in
            var p: UnsafeMutablePointer<UInt8>? = buf.baseAddress
            return i2d_ECDSA_SIG(sig, &p)
        }
        return written == length ? out : nil
    }

    private static func verify(_ key: EVPKey, md: OpaquePointer?, der signature: [UInt8], message: [UInt8]) -> Bool {
        OpenSSLErrors.clear()
        defer { OpenSSLErrors.clear() }
        guard let ctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestVerifyInit(ctx, nil, md, nil, key.raw) == 1 else { return false }
        return signature.withUnsafeBufferPointer { s in
            message.withUnsafeBufferPointer { m in
                EVP_DigestVerify(ctx, s.baseAddress, s.count, m.baseAddress, m.count) == 1
            }
        }
    }
}
