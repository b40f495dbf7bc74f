// A pipe whose ends are close-on-exec: a child gets only the copies its file actions
// dup2 onto its own descriptors (dup2 clears FD_CLOEXEC on the copy).
#if canImport(Glibc)
import Glibc
#endif

public struct UnixPipe: Sendable {
    public let readEnd: Int32
    public let writeEnd: Int32

    public init() throws(Errno) {
        var fds: [Int32] = [-1, -1]
        // pipe2 is a GNU extension Glibc's module does not export; no other thread of ours
        // spawns between the two calls without going through here.
        guard pipe(&fds) == 0 else { throw Errno.current }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    /// How many bytes the pipe holds before a write to it blocks: fcntl F_GETPIPE_SZ
    /// (Linux's fcntl.h: F_LINUX_SPECIFIC_BASE + 8, not exported to Swift), else one page,
    /// the least a pipe holds.
    public var capacity: Int {
        let n = fcntl(writeEnd, 1024 + 8)
        return n > 0 ? Int(n) : 4096
    }

    public func close() {
        _ = Glibc.close(readEnd)
        _ = Glibc.close(writeEnd)
    }
}
