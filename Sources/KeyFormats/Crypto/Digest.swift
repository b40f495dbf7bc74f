// Hash and MAC functions, all from the system libraries: SHA-256/512 from libsodium,
// SHA-1, SHA-384, MD5 and HMAC from OpenSSL libcrypto. Nothing here is implemented by hand.
internal import CSodium
internal import COpenSSL

public enum Digest {
    public static func sha256<C: Collection>(_ data: C) -> [UInt8] where C.Element == UInt8 {
        var out = [UInt8](repeating: 0, count: 32)
        let input = Array(data)
        input.withUnsafeBufferPointer { inp in
            out.withUnsafeMutableBufferPointer { o in
                _ = crypto_hash_sha256(o.baseAddress!, inp.baseAddress, UInt64(inp.count))
            }
        }
        return out
    }

    public static func sha512<C: Collection>(_ data: C) -> [UInt8] where C.Element == UInt8 {
        var out = [UInt8](repeating: 0, count: 64)
        let input = Array(data)
        input.withUnsafeBufferPointer { inp in
            out.withUnsafeMutableBufferPointer { o in
                _ = crypto_hash_sha512(o.baseAddress!, inp.baseAddress, UInt64(inp.count))
            }
        }
        return out
    }

    /// SHA-512 of a raw buffer into a caller-provided 64-byte buffer (no allocation;
    /// used by bcrypt_pbkdf on secret material).
    public static func sha512(_ input: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count >= 64)
        _ = crypto_hash_sha512(out.baseAddress!.assumingMemoryBound(to: UInt8.self),
                               input.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(input.count))
    }

    public static func sha1<C: Collection>(_ data: C) -> [UInt8] where C.Element == UInt8 {
        evp(EVP_sha1(), Array(data), 20)
    }

    /// SHA-384 (an ECDSA P-384 signature's hash, signed by a token).
    public static func sha384<C: Collection>(_ data: C) -> [UInt8] where C.Element == UInt8 {
        evp(EVP_sha384(), Array(data), 48)
    }

    public static func md5<C: Collection>(_ data: C) -> [UInt8] where C.Element == UInt8 {
        evp(EVP_md5(), Array(data), 16)
    }

    public enum HMACAlgorithm: Sendable { case sha1, sha256, sha512 }

    public static func hmac(_ algorithm: HMACAlgorithm, key: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer) -> [UInt8] {
        let md: OpaquePointer?
        let size: Int
        switch algorithm {
        case .sha1: md = EVP_sha1(); size = 20
        case .sha256: md = EVP_sha256(); size = 32
        case .sha512: md = EVP_sha512(); size = 64
        }
        var out = [UInt8](repeating: 0, count: size)
        var outLen: UInt32 = 0
        // OpenSSL wants non-null pointers even for empty inputs.
        let empty: [UInt8] = [0]
        empty.withUnsafeBytes { placeholder in
            let k = key.count > 0 ? key.baseAddress! : placeholder.baseAddress!
            let m = (message.count > 0 ? message.baseAddress! : placeholder.baseAddress!).assumingMemoryBound(to: UInt8.self)
            out.withUnsafeMutableBufferPointer { o in
                _ = HMAC(md, k, Int32(key.count), m, message.count, o.baseAddress, &outLen)
            }
        }
        return out
    }

    public static func hmac(_ algorithm: HMACAlgorithm, key: [UInt8], message: [UInt8]) -> [UInt8] {
        key.withUnsafeBytes { k in message.withUnsafeBytes { m in hmac(algorithm, key: k, message: m) } }
    }

    private static func evp(_ md: OpaquePointer?, _ input: [UInt8], _ size: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size)
        var outLen: UInt32 = 0
        input.withUnsafeBytes { inp in
            out.withUnsafeMutableBufferPointer { o in
                _ = EVP_Digest(inp.baseAddress, inp.count, o.baseAddress, &outLen, md, nil)
            }
        }
        return out
    }
}
