// The input of an import read from a file descriptor (a file, stdin, or the pipe of a child
// process) in chunks, for the pure readers of ImportFormats (ByteSource).
import ImportFormats
import System

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
