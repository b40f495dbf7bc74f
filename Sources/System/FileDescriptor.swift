// An open file descriptor and the single read(2)/write(2) calls on it, retried when a
// signal interrupts them (EINTR) so that no caller has to.
#if canImport(Glibc)
import Glibc
#endif

public struct FileDescriptor: Sendable, Hashable {
    public let rawValue: Int32

    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    public static let standardInput = FileDescriptor(STDIN_FILENO)
    public static let standardOutput = FileDescriptor(STDOUT_FILENO)
    public static let standardError = FileDescriptor(STDERR_FILENO)

    /// One read(2) into `buffer`: how many bytes came, 0 at end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let n = Glibc.read(rawValue, base, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw Errno.current }
        }
    }

    /// One write(2) of (a prefix of) `bytes`: how many were written.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        while true {
            let n = Glibc.write(rawValue, base, bytes.count)
            if n >= 0 { return n }
            if errno != EINTR { throw Errno.current }
        }
    }

    /// One send(2) with MSG_NOSIGNAL: a peer that went away is EPIPE, not SIGPIPE.
    public func send(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        while true {
            let n = Glibc.send(rawValue, base, bytes.count, Int32(MSG_NOSIGNAL))
            if n >= 0 { return n }
            if errno != EINTR { throw Errno.current }
        }
    }
}
