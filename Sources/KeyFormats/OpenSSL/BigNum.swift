// An owned OpenSSL BIGNUM. Secret values are created with `secret: true` so they use
// BN_FLG_CONSTTIME and are wiped (BN_clear_free) when released.
internal import COpenSSL
import SecureMemory

final class BigNum {
    let raw: OpaquePointer
    private let secret: Bool

    /// Takes ownership of a BIGNUM returned by OpenSSL.
    init(owning raw: OpaquePointer, secret: Bool) {
        self.raw = raw
        self.secret = secret
        if secret { BN_set_flags(raw, BN_FLG_CONSTTIME) }
    }

    /// A new BIGNUM from a big-endian magnitude.
    convenience init(_ bytes: UnsafeRawBufferPointer, secret: Bool) throws {
        let p = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        guard let bn = BN_bin2bn(p, Int32(bytes.count), nil) else {
            OpenSSLErrors.clear()
            throw KeyFormatError.invalid("out of memory converting an integer")
        }
        self.init(owning: bn, secret: secret)
    }

    static func from(_ bytes: [UInt8]) throws -> BigNum {
        try bytes.withUnsafeBytes { try BigNum($0, secret: false) }
    }

    static func from(_ secret: SecretBytes) throws -> BigNum {
        try secret.withUnsafeBytes { try BigNum($0, secret: true) }
    }

    convenience init(word: UInt) throws {
        guard let bn = BN_new() else { throw KeyFormatError.invalid("out of memory") }
        self.init(owning: bn, secret: false)
        BN_set_word(bn, word)
    }

    /// An empty BIGNUM to receive a result.
    static func result(secret: Bool = false) throws -> BigNum {
        guard let bn = BN_new() else { throw KeyFormatError.invalid("out of memory") }
        return BigNum(owning: bn, secret: secret)
    }

    deinit {
        if secret { BN_clear_free(raw) } else { BN_free(raw) }
    }

    var bitCount: Int { Int(BN_num_bits(raw)) }
    var byteCount: Int { (bitCount + 7) / 8 }
    var isZero: Bool { BN_is_zero(raw) == 1 }
    var isOne: Bool { BN_is_one(raw) == 1 }
    var isNegative: Bool { BN_is_negative(raw) == 1 }

    /// Big-endian magnitude without leading zeros (zero is empty).
    var bytes: [UInt8] {
        var out = [UInt8](repeating: 0, count: byteCount)
        out.withUnsafeMutableBufferPointer { _ = BN_bn2bin(raw, $0.baseAddress) }
        return out
    }

    /// Big-endian magnitude, written straight into secure memory.
    var secretBytes: SecretBytes {
        let out = SecretBytes(count: byteCount)
        out.withUnsafeMutableBytes { buf in
            if let base = buf.baseAddress { _ = BN_bn2bin(raw, base.assumingMemoryBound(to: UInt8.self)) }
        }
        return out
    }

    /// Big-endian, left-padded with zeros to `width` bytes (nil when it does not fit).
    func paddedBytes(width: Int) -> [UInt8]? {
        guard byteCount <= width else { return nil }
        var out = [UInt8](repeating: 0, count: width)
        out.withUnsafeMutableBufferPointer { _ = BN_bn2binpad(raw, $0.baseAddress, Int32(width)) }
        return out
    }

    static func compare(_ a: BigNum, _ b: BigNum) -> Int { Int(BN_cmp(a.raw, b.raw)) }
}

/// A BN_CTX for the arithmetic in one function.
final class BigNumContext {
    let raw: OpaquePointer
    init() throws {
        guard let ctx = BN_CTX_secure_new() ?? BN_CTX_new() else { throw KeyFormatError.invalid("out of memory") }
        raw = ctx
    }
    deinit { BN_CTX_free(raw) }
}
