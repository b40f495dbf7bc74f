// Base64 (RFC 4648 §4, `+/`, `=` padding) decoded straight into secure memory, for the
// bodies of private key files (openssh-key-v1, PEM, .ppk private lines). The text is given
// as pieces (views of lines in the caller's buffer), so it is never copied into an Array
// or a String on the way.
import SecureMemory

enum SecretBase64 {
    enum Failure: Error {
        /// A symbol after the `=` padding.
        case dataAfterPadding
        /// A byte outside the alphabet (or, when strict, a space or line break).
        case notBase64
        /// Cut short: a lone symbol at the end, padding that does not fit, or (strict)
        /// leftover bits that are not zero.
        case incomplete
    }

    /// Decodes the concatenation of `pieces`. Lenient (openssh-key-v1, as OpenSSH's reader):
    /// line breaks, spaces and tabs are skipped anywhere. Strict (PEM and .ppk, as `Base64.decode`):
    /// only the alphabet, padding only at the end and exactly as much as needed, the
    /// unused bits of the last symbol zero.
    static func decode(_ pieces: [Slice<UnsafeRawBufferPointer>], strict: Bool) throws(Failure) -> SecretBytes {
        var total = 0
        for piece in pieces { total += piece.count }
        let out = SecretBytes(count: total / 4 * 3 + 3)
        var length = 0
        var acc: UInt32 = 0
        var bits = 0
        var padding = 0
        var symbols = 0
        let failure: Failure? = out.withUnsafeMutableBytes { o -> Failure? in
            defer { acc = 0 }
            for piece in pieces {
                for c in piece {
                    if !strict, c == 0x0a || c == 0x0d || c == 0x20 || c == 0x09 { continue }
                    if c == UInt8(ascii: "=") { padding += 1; symbols += 1; continue }
                    guard padding == 0 else { return .dataAfterPadding }
                    guard let v = value(of: c) else { return .notBase64 }
                    acc = (acc << 6 | v) & 0xffffff
                    bits += 6
                    symbols += 1
                    if bits >= 8 {
                        bits -= 8
                        o[length] = UInt8(truncatingIfNeeded: acc >> UInt32(bits))
                        length += 1
                    }
                }
            }
            if strict, bits > 0, acc & ((1 << UInt32(bits)) - 1) != 0 { return .incomplete }
            return nil
        }
        if let failure { throw failure }
        guard padding <= 2, symbols % 4 != 1, padding == 0 || symbols % 4 == 0 else { throw .incomplete }
        if strict, padding > 0, padding != (4 - (symbols - padding) % 4) % 4 { throw .incomplete }
        return out.slice(0..<length)
    }

    @inline(__always)
    static func value(of c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(c - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(c - UInt8(ascii: "a") + 26)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0") + 52)
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
