// Where an importer's input bytes come from: a file descriptor (a file, stdin, or the pipe
// of a child process) read in chunks, or bytes already in memory. Readers pull chunks so
// a large input never has to be held in memory whole.
#if canImport(Glibc)
import Glibc
#endif
import System

/// A source of input bytes read in order.
public protocol ByteSource {
    /// Fills `buffer` from its start with up to `buffer.count` bytes; returns how many were
    /// read, 0 at the end of the input.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Failure to read the input itself (not a problem with its content). Internal: readers
/// report it as a `HostStoreError`.
struct ByteSourceError: Error, Sendable, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Reads from an open file descriptor until end of file. Does not close it.
public struct FileDescriptorSource: ByteSource {
    public let fd: Int32
    public let name: String

    public init(fd: Int32, name: String) {
        self.fd = fd
        self.name = name
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        do { return try FileDescriptor(fd).read(into: buffer) } catch {
            throw ByteSourceError(message: "cannot read \(name): \(error)")
        }
    }
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
