// Reading and writing a descriptor whole: short reads and writes (pipes, sockets,
// terminals) and EINTR are the loop's business, not the caller's.
#if canImport(Glibc)
import Glibc
#endif

extension FileDescriptor {
    /// Why `readToEnd` stopped short.
    public enum ReadToEndError: Error, Equatable, Sendable {
        /// read(2) failed.
        case system(Errno)
        /// More than the limit came; what was read is dropped.
        case tooLong
    }

    /// Writes all of `bytes`; throws on the first failed write (EPIPE for a closed pipe).
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let n = try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            // write(2) returns 0 only for a count of 0; never spin on it.
            if n == 0 { throw Errno(EIO) }
            offset += n
        }
    }

    /// Writes all of `bytes` with send(2) and MSG_NOSIGNAL (a socket whose peer may go away).
    public func sendAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let n = try send(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            if n == 0 { throw Errno(EIO) }
            offset += n
        }
    }

    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        // withUnsafeBytes rethrows untyped: the error comes out through a Result.
        try bytes.withUnsafeBytes { buffer in Result { () throws(Errno) in try writeAll(buffer) } }.get()
    }

    /// Fills `buffer` unless the end of file comes first: how many bytes were read.
    public func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        var offset = 0
        while offset < buffer.count {
            let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]))
            if n == 0 { break }
            offset += n
        }
        return offset
    }

    /// Fills `buffer` whole; false when the end of file or an error came first.
    public func readExactly(_ buffer: inout [UInt8]) -> Bool {
        let wanted = buffer.count
        let got = buffer.withUnsafeMutableBytes { try? readFully(into: $0) }
        return got == wanted
    }

    /// At most `limit` bytes: what came before the end of file or the limit (the rest is
    /// not read).
    public func readPrefix(limit: Int) throws(Errno) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: max(0, limit))
        let n = try out.withUnsafeMutableBytes { buffer in Result { () throws(Errno) in try readFully(into: buffer) } }.get()
        out.removeSubrange(n...)
        return out
    }

    /// Everything up to the end of file; `.tooLong` as soon as more than `limit` bytes came.
    public func readToEnd(limit: Int) throws(ReadToEndError) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n: Int
            switch chunk.withUnsafeMutableBytes({ buffer in Result { () throws(Errno) in try read(into: buffer) } }) {
            case .success(let got): n = got
            case .failure(let error): throw .system(error)
            }
            if n == 0 { return out }
            out += chunk[0..<n]
            if out.count > limit { throw .tooLong }
        }
    }
}

extension FileDescriptor {
    /// Reads to the end of file (or the first error), keeping only the first `keep` bytes:
    /// a child writing to a pipe is never left blocked on it, and its output cannot grow
    /// without bound in memory.
    public func readDraining(keep: Int) -> [UInt8] {
        var kept: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            guard let n = try? chunk.withUnsafeMutableBytes({ try read(into: $0) }), n > 0 else { return kept }
            if kept.count < keep { kept += chunk[0..<min(n, keep - kept.count)] }
        }
    }
}
