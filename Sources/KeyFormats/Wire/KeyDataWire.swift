// RFC 4251 §5 reading and writing over secure memory, for the parts of a key file that
// hold secrets (openssh-key-v1's decrypted private section, a .ppk private blob). Same rules as SSHReader/SSHWriter, but
// fields are views into the caller's buffer or SecretBytes, never ordinary arrays.
import SecureMemory

/// A bounds-checked reader over a buffer the caller keeps alive (and wipes).
struct KeyDataReader {
    let buffer: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

    var remaining: Int { buffer.count - offset }
    var isAtEnd: Bool { offset == buffer.count }

    mutating func readByte() throws -> UInt8 {
        guard remaining >= 1 else { throw Self.truncated("byte") }
        defer { offset += 1 }
        return buffer[offset]
    }

    mutating func readUInt32() throws -> UInt32 {
        guard remaining >= 4 else { throw Self.truncated("uint32") }
        var v: UInt32 = 0
        for i in 0..<4 { v = v << 8 | UInt32(buffer[offset + i]) }
        offset += 4
        return v
    }

    /// `count` raw bytes as a view into the buffer.
    mutating func readView(_ count: Int) throws -> UnsafeRawBufferPointer {
        guard count >= 0, remaining >= count else { throw Self.truncated("\(count)-byte field") }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
    }

    /// string (RFC 4251 §5) as a view; the length is checked before anything is read.
    mutating func readStringView() throws -> UnsafeRawBufferPointer {
        let start = offset
        let length = try readUInt32()
        guard Int(length) <= remaining else {
            offset = start
            throw KeyFormatError.invalid("a length field (\(length)) runs past the end of the data")
        }
        return try readView(Int(length))
    }

    /// A string holding public bytes, copied out.
    mutating func readPublicString() throws -> [UInt8] { Array(try readStringView()) }

    /// A string holding a secret, copied into secure memory.
    mutating func readSecretString() throws -> SecretBytes { SecretBytes(copying: try readStringView()) }

    /// A UTF-8 name without NUL bytes.
    mutating func readText(_ what: String) throws -> String {
        let start = offset
        let raw = try readStringView()
        guard !raw.contains(0), let s = String(validating: raw, as: UTF8.self) else {
            offset = start
            throw KeyFormatError.invalid("\(what) is not valid UTF-8 text")
        }
        return s
    }

    /// mpint as OpenSSH reads it (MPIntRule): negative values and values over 16384 bits are
    /// refused, leading zeros stripped. Returns the magnitude.
    mutating func readSecretMPInt(_ what: String) throws -> SecretBytes {
        let start = offset
        let raw = try readStringView()
        do {
            return SecretBytes(copying: UnsafeRawBufferPointer(rebasing: raw[try MPIntRule.magnitudeStart(of: raw)...]))
        } catch {
            offset = start
            switch error {
            case .negative: throw KeyFormatError.invalid("\(what) is a negative integer")
            case .tooLarge: throw KeyFormatError.invalid("\(what) is larger than 16384 bits")
            }
        }
    }

    mutating func readPublicMPInt(_ what: String) throws -> [UInt8] {
        let m = try readSecretMPInt(what)
        return m.withUnsafeBytes { Array($0) }
    }

    static func truncated(_ what: String) -> KeyFormatError {
        KeyFormatError.invalid("the data ends in the middle of a \(what) (truncated)")
    }
}

/// A growable writer whose bytes live in secure memory (old buffers are wiped on growth).
struct KeyDataWriter {
    private(set) var storage = SecretBytes(count: 256)
    private(set) var count = 0

    init() {}

    private mutating func reserve(_ extra: Int) {
        guard count + extra > storage.count else { return }
        var size = storage.count
        while size < count + extra { size *= 2 }
        let bigger = SecretBytes(count: size)
        let used = count
        bigger.withUnsafeMutableBytes { dst in
            storage.withUnsafeBytes { src in
                if used > 0 { dst.baseAddress!.copyMemory(from: src.baseAddress!, byteCount: used) }
            }
        }
        storage = bigger
    }

    mutating func writeRaw(_ raw: UnsafeRawBufferPointer) {
        reserve(raw.count)
        guard raw.count > 0 else { return }
        let at = count
        storage.withUnsafeMutableBytes { (dst: UnsafeMutableRawBufferPointer) in
            (dst.baseAddress! + at).copyMemory(from: raw.baseAddress!, byteCount: raw.count)
        }
        count += raw.count
    }

    mutating func writeRaw(_ bytes: [UInt8]) { bytes.withUnsafeBytes { writeRaw($0) } }
    mutating func writeRaw(_ secret: SecretBytes) { secret.withUnsafeBytes { writeRaw($0) } }

    mutating func writeByte(_ b: UInt8) { writeRaw([b]) }

    mutating func writeUInt32(_ v: UInt32) {
        writeRaw([UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)])
    }

    mutating func writeString(_ raw: UnsafeRawBufferPointer) {
        writeUInt32(UInt32(raw.count))
        writeRaw(raw)
    }

    mutating func writeString(_ bytes: [UInt8]) { bytes.withUnsafeBytes { writeString($0) } }
    mutating func writeString(_ text: String) { writeString(Array(text.utf8)) }
    mutating func writeString(_ secret: SecretBytes) { secret.withUnsafeBytes { writeString($0) } }

    /// mpint from a magnitude kept in secure memory: leading zeros dropped, a 0x00 added
    /// when the top bit is set (canonical form, RFC 4251 §5).
    mutating func writeMPInt(_ magnitude: UnsafeRawBufferPointer) {
        var start = 0
        while start < magnitude.count && magnitude[start] == 0 { start += 1 }
        let body = UnsafeRawBufferPointer(rebasing: magnitude[start...])
        let extra = (body.first.map { $0 & 0x80 != 0 } ?? false) ? 1 : 0
        writeUInt32(UInt32(body.count + extra))
        if extra == 1 { writeByte(0) }
        writeRaw(body)
    }

    mutating func writeMPInt(_ secret: SecretBytes) { secret.withUnsafeBytes { writeMPInt($0) } }
    mutating func writeMPInt(_ bytes: [UInt8]) { bytes.withUnsafeBytes { writeMPInt($0) } }

    /// The bytes written so far, in a secret buffer of exactly that size.
    func finish() -> SecretBytes { storage.slice(0..<count) }
}
