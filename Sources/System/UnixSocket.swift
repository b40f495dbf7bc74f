// Unix stream sockets: a listener whose file is created 0600 (umask 0177 around bind, then
// chmod), a client connect, accept, and the peer's credentials from the kernel
// (SO_PEERCRED: what the peer was when it connected, not what it claims).
#if canImport(Glibc)
import Glibc
#endif

public enum UnixSocket {
    /// sizeof(sun_path) less the terminating NUL.
    public static let maxPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The peer's pid, uid and gid when it connected.
    public struct PeerCredentials: Sendable, Equatable {
        public let pid: pid_t
        public let uid: uid_t
        public let gid: gid_t

        public init(pid: pid_t, uid: uid_t, gid: gid_t) {
            self.pid = pid
            self.uid = uid
            self.gid = gid
        }
    }

    /// What failed and errno's words (or just what, for a path too long).
    public struct Failure: Error, Sendable, Equatable {
        public let step: Step
        public let error: Errno?

        public enum Step: Sendable, Equatable {
            case pathTooLong, socket, bind, listen, connect
        }
    }

    /// A listening socket at `path` (which must not exist), mode 0600, close-on-exec and
    /// non-blocking (accept after poll).
    public static func listen(at path: String, backlog: Int32 = 128) throws(Failure) -> Int32 {
        let fd = try makeSocket(nonBlocking: true)
        let old = umask(0o177)
        let bound = withAddress(path) { bind(fd, $0, $1) }
        umask(old)
        guard let bound else { close(fd); throw Failure(step: .pathTooLong, error: nil) }
        guard bound == 0 else { let e = Errno.current; close(fd); throw Failure(step: .bind, error: e) }
        guard chmod(path, 0o600) == 0, Glibc.listen(fd, backlog) == 0 else {
            let e = Errno.current; close(fd); unlink(path); throw Failure(step: .listen, error: e)
        }
        return fd
    }

    /// A connected, close-on-exec socket to `path`.
    public static func connect(to path: String) throws(Failure) -> Int32 {
        let fd = try makeSocket(nonBlocking: false)
        let connected = withAddress(path) { Glibc.connect(fd, $0, $1) }
        guard let connected else { close(fd); throw Failure(step: .pathTooLong, error: nil) }
        guard connected == 0 else { let e = Errno.current; close(fd); throw Failure(step: .connect, error: e) }
        return fd
    }

    /// Bounds how long a send on `fd` may block (SO_SNDTIMEO): a peer that stops reading
    /// makes the send fail instead of holding the caller.
    public static func setSendTimeout(_ fd: Int32, milliseconds: Int32) {
        var limit = timeval(tv_sec: Int(milliseconds / 1000), tv_usec: Int(milliseconds % 1000) * 1000)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// One accept(2): the client (close-on-exec, blocking), or the errno of a failed call
    /// (EAGAIN when no client waits, EMFILE... when out of resources).
    public static func acceptConnection(_ listener: Int32) -> Result<Int32, Errno> {
        let client = Glibc.accept(listener, nil, nil)
        guard client >= 0 else { return .failure(Errno.current) }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        return .success(client)
    }

    /// The connected peer's credentials, nil when the kernel gives none.
    public static func peerCredentials(_ fd: Int32) -> PeerCredentials? {
        // struct ucred (a GNU type Glibc's module does not export): three 32-bit fields.
        var cred = [Int32](repeating: 0, count: 3)
        var length = socklen_t(12)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) == 0, length == 12 else { return nil }
        return PeerCredentials(pid: cred[0], uid: uid_t(bitPattern: cred[1]), gid: gid_t(bitPattern: cred[2]))
    }

    private static func makeSocket(nonBlocking: Bool) throws(Failure) -> Int32 {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        let fd = socket(AF_UNIX, type, 0)
        guard fd >= 0 else { throw Failure(step: .socket, error: Errno.current) }
        return fd
    }

    /// Calls `body` with the sockaddr_un of `path`; nil when the path does not fit.
    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32? {
        guard path.utf8.count <= maxPathLength else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
            raw[path.utf8.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
