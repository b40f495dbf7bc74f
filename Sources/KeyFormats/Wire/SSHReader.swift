// Reader primitives for the SSH binary encodings of RFC 4251 §5.
// Every read checks the remaining length first and never over-reads; a failed read
// leaves the reader where it was, so callers never see half-consumed input.

public struct SSHReader {
    public let bytes: [UInt8]
    public private(set) var offset: Int

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.offset = 0
    }

    public var remaining: Int { bytes.count - offset }
    public var isAtEnd: Bool { offset == bytes.count }

    /// Fails unless every byte has been consumed (OpenSSH refuses trailing data in blobs).
    public func expectEnd(_ what: @autoclosure () -> String) throws {
        if !isAtEnd { throw KeyFormatError.invalid("\(what()) has \(remaining) unexpected trailing bytes") }
    }

    /// byte: "an arbitrary 8-bit value (octet)" (RFC 4251 §5).
    public mutating func readByte() throws -> UInt8 {
        guard remaining >= 1 else { throw Self.truncated("byte") }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// boolean: stored as a single byte; "all non-zero values MUST be interpreted as TRUE" (RFC 4251 §5).
    public mutating func readBool() throws -> Bool { try readByte() != 0 }

    /// uint32: "stored as four bytes in the order of decreasing significance (network byte order)" (RFC 4251 §5).
    public mutating func readUInt32() throws -> UInt32 {
        guard remaining >= 4 else { throw Self.truncated("uint32") }
        var v: UInt32 = 0
        for i in 0..<4 { v = (v << 8) | UInt32(bytes[offset + i]) }
        offset += 4
        return v
    }

    /// uint64: eight bytes, network byte order (RFC 4251 §5).
    public mutating func readUInt64() throws -> UInt64 {
        guard remaining >= 8 else { throw Self.truncated("uint64") }
        var v: UInt64 = 0
        for i in 0..<8 { v = (v << 8) | UInt64(bytes[offset + i]) }
        offset += 8
        return v
    }

    /// Exactly `count` raw bytes.
    public mutating func readBytes(_ count: Int) throws -> [UInt8] {
        guard count >= 0, remaining >= count else { throw Self.truncated("\(count)-byte field") }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// string: "a uint32 containing its length (not including the uint32 itself), followed by
    /// zero or more bytes that are the value of the string" (RFC 4251 §5).
    /// The length is checked against what is left before anything is allocated.
    public mutating func readString() throws -> [UInt8] {
        let start = offset
        let length = try readUInt32()
        guard Int(length) <= remaining else {
            offset = start
            throw KeyFormatError.invalid("a length field (\(length)) runs past the end of the data")
        }
        return try readBytes(Int(length))
    }

    /// A string that must be UTF-8 text without NUL bytes (names, comments).
    public mutating func readText(_ what: String = "text field") throws -> String {
        let start = offset
        let raw = try readString()
        guard !raw.contains(0), let s = String(validating: raw, as: UTF8.self) else {
            offset = start
            throw KeyFormatError.invalid("\(what) is not valid UTF-8 text")
        }
        return s
    }

    /// mpint as OpenSSH reads it (MPIntRule): a string holding a big-endian two's-complement
    /// integer (RFC 4251 §5); negative values and values over 16384 bits are refused.
    /// Returns the unsigned magnitude, big-endian, without leading zeros (zero is `[]`).
    public mutating func readMPInt() throws -> [UInt8] {
        let start = offset
        let raw = try readString()
        do {
            return Array(raw[try MPIntRule.magnitudeStart(of: raw)...])
        } catch {
            offset = start
            switch error {
            case .negative: throw KeyFormatError.invalid("a negative integer (mpint) where a positive one is required")
            case .tooLarge: throw KeyFormatError.invalid("an integer (mpint) is larger than 16384 bits")
            }
        }
    }

    private static func truncated(_ what: String) -> KeyFormatError {
        KeyFormatError.invalid("the data ends in the middle of a \(what) (truncated)")
    }
}
