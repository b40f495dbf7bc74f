// Writer for the SSH binary encodings of RFC 4251 §5, producing canonical forms only.

public struct SSHWriter {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func writeByte(_ b: UInt8) { bytes.append(b) }

    public mutating func writeBool(_ b: Bool) { bytes.append(b ? 1 : 0) }

    public mutating func writeUInt32(_ v: UInt32) {
        bytes.append(contentsOf: [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)])
    }

    public mutating func writeUInt64(_ v: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((v >> UInt64(shift)) & 0xff)) }
    }

    public mutating func writeRaw<C: Collection>(_ raw: C) where C.Element == UInt8 { bytes.append(contentsOf: raw) }

    /// string: uint32 length, then the bytes (RFC 4251 §5).
    public mutating func writeString<C: Collection>(_ raw: C) where C.Element == UInt8 {
        writeUInt32(UInt32(raw.count))
        bytes.append(contentsOf: raw)
    }

    public mutating func writeString(_ text: String) { writeString(Array(text.utf8)) }

    /// mpint from an unsigned big-endian magnitude: leading zeros removed, and one 0x00
    /// prepended when the top bit would otherwise be set; zero is the empty string (RFC 4251 §5).
    public mutating func writeMPInt<C: Collection>(unsigned magnitude: C) where C.Element == UInt8 {
        var m = Array(magnitude.drop(while: { $0 == 0 }))
        if let first = m.first, first & 0x80 != 0 { m.insert(0, at: 0) }
        writeString(m)
    }
}
