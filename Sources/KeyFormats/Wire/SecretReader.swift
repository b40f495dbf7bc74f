// RFC 4251 §5 reads over decrypted key material without copying it out of secure memory:
// strings come back as views into the buffer, integers straight into `SecretBytes`.
// Same rules as SSHReader (bounded lengths, no over-read, canonical-enough mpints).
import SecureMemory

struct SecretReader {
    let buffer: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

    var remaining: Int { buffer.count - offset }

    mutating func readUInt32() throws -> UInt32 {
        guard remaining >= 4 else { throw KeyFormatError.invalid("the private key data ends in the middle of a length (truncated)") }
        var v: UInt32 = 0
        for i in 0..<4 { v = v << 8 | UInt32(buffer[offset + i]) }
        offset += 4
        return v
    }

    /// string: uint32 length, then that many bytes — returned as a view into the buffer.
    mutating func readString() throws -> UnsafeRawBufferPointer {
        let start = offset
        let length = try readUInt32()
        guard Int(length) <= remaining else {
            offset = start
            throw KeyFormatError.invalid("a length field (\(length)) in the private key runs past the end of the data")
        }
        defer { offset += Int(length) }
        return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + Int(length)])
    }

    /// mpint as sshbuf_get_bignum2 reads it: positive, at most 16384 bits; the magnitude
    /// without leading zeros, copied into secure memory.
    mutating func readSecretMPInt() throws -> SecretBytes {
        let start = offset
        let raw = try readString()
        if let first = raw.first, first & 0x80 != 0 {
            offset = start
            throw KeyFormatError.invalid("a negative integer (mpint) in the private key")
        }
        guard raw.count <= 2049 else {
            offset = start
            throw KeyFormatError.invalid("an integer (mpint) in the private key is larger than 16384 bits")
        }
        let skip = raw.firstIndex(where: { $0 != 0 }) ?? raw.count
        return SecretBytes(copying: UnsafeRawBufferPointer(rebasing: raw[skip...]))
    }
}
