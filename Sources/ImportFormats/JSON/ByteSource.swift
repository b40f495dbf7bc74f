// Where a reader's input bytes come from: bytes already in memory here, or a file
// descriptor (HostStore's FileDescriptorSource: this module does no I/O). Readers pull
// chunks so a large input never has to be held in memory whole.

/// A source of input bytes read in order.
public protocol ByteSource {
    /// Fills `buffer` from its start with up to `buffer.count` bytes; returns how many were
    /// read, 0 at the end of the input.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Failure to read the input itself (not a problem with its content), thrown by a source;
/// the Tailscale reader reports it as `TailscaleInputError.unreadable`.
public struct ByteSourceError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// Bytes already in memory (tests, small inputs).
public struct MemorySource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0
    /// At most this many bytes per read, like a pipe that delivers data in small pieces.
    private let maxRead: Int

    public init(_ bytes: [UInt8], maxRead: Int = .max) {
        self.bytes = bytes
        self.maxRead = max(1, maxRead)
    }

    public init(_ text: String, maxRead: Int = .max) { self.init(Array(text.utf8), maxRead: maxRead) }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - offset, maxRead)
        if n > 0 {
            bytes.withUnsafeBytes { src in
                buffer.baseAddress!.copyMemory(from: src.baseAddress! + offset, byteCount: n)
            }
            offset += n
        }
        return n
    }
}
