// A listening Unix stream socket that serves several clients at once: one thread accepts,
// one thread per client runs the handler. The socket file is created 0600 (umask 0177
// around bind) and every peer's uid is checked with SO_PEERCRED: only this user (and
// root, as ssh-agent allows) is served. `stop()` closes the listener and every client,
// waits for their threads, and removes the socket file.
#if canImport(Glibc)
import Glibc
#endif

/// One accepted client connection.
public final class UnixConnection: @unchecked Sendable {
    public let fd: Int32
    public let peer: AgentPeer

    init(fd: Int32, peer: AgentPeer) {
        self.fd = fd
        self.peer = peer
    }

    /// Reads one `uint32 length ‖ body` frame. nil at end of stream, on a read error, or
    /// when the length is 0 or above `maxLength` (the connection is then to be closed).
    public func readFrame(maxLength: Int) -> [UInt8]? {
        var header = [UInt8](repeating: 0, count: 4)
        guard readFully(&header) else { return nil }
        let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        guard length > 0, length <= maxLength else { return nil }
        var body = [UInt8](repeating: 0, count: length)
        guard readFully(&body) else { return nil }
        return body
    }

    /// Writes one frame; false when the peer went away.
    public func writeFrame(_ body: [UInt8]) -> Bool {
        let n = UInt32(body.count)
        let frame = [UInt8(n >> 24), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)] + body
        var offset = 0
        while offset < frame.count {
            let written = frame.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0 { if errno == EINTR { continue }; return false }
            offset += written
        }
        return true
    }

    private func readFully(_ buffer: inout [UInt8]) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 { if errno == EINTR { continue }; return false }
            if n == 0 { return false }
            offset += n
        }
        return true
    }
}

public final class UnixSocketServer: @unchecked Sendable {
    public let path: String
    private let listener: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let handler: @Sendable (UnixConnection) -> Void
    private let lock = Mutex()
    private var clients: Set<Int32> = []
    private var stopped = false
    private var acceptThread: pthread_t?

    /// Binds and listens at `path` (which must not exist). Serving starts with `start()`.
    public init(path: String, handler: @escaping @Sendable (UnixConnection) -> Void) throws {
        guard path.utf8.count <= PrivateSocketDirectory.maxSocketPath else { throw SocketError("the socket path is too long") }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError.errno("cannot create a socket") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
            raw[path.utf8.count] = 0
        }
        let old = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(old)
        guard bound == 0 else { let e = SocketError.errno("cannot create the socket \(path)"); close(fd); throw e }
        guard chmod(path, 0o600) == 0, listen(fd, 128) == 0 else {
            let e = SocketError.errno("cannot listen on \(path)"); close(fd); unlink(path); throw e
        }
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else {
            let e = SocketError.errno("cannot create a pipe"); close(fd); unlink(path); throw e
        }
        for p in pipeFDs { _ = fcntl(p, F_SETFD, FD_CLOEXEC) }
        self.path = path
        self.listener = fd
        self.wakeRead = pipeFDs[0]
        self.wakeWrite = pipeFDs[1]
        self.handler = handler
    }

    deinit { stop() }

    /// Starts the accepting thread.
    public func start() throws {
        acceptThread = try Threads.spawn { [self] in acceptLoop() }
    }

    /// Closes the listener and every connection, waits for the threads, removes the socket.
    public func stop() {
        let first: Bool = lock.locked {
            if stopped { return false }
            stopped = true
            for fd in clients { shutdown(fd, Int32(SHUT_RDWR)) }
            return true
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        if let acceptThread { pthread_join(acceptThread, nil) }
        // Client threads finish once their sockets are shut down.
        while lock.locked({ !clients.isEmpty }) { usleep(1_000) }
        close(listener)
        close(wakeRead)
        close(wakeWrite)
        unlink(path)
    }

    private func acceptLoop() {
        while true {
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 { if errno == EINTR { continue }; return }
            if fds[1].revents != 0 { return }
            guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
            let client = accept(listener, nil, nil)
            if client < 0 { continue }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            guard let peer = Self.peer(of: client), peer.uid == getuid() || peer.uid == 0 else {
                close(client)
                continue
            }
            let admitted: Bool = lock.locked {
                if stopped { return false }
                clients.insert(client)
                return true
            }
            guard admitted else { close(client); return }
            let connection = UnixConnection(fd: client, peer: peer)
            let handler = self.handler
            do {
                try Threads.spawnDetached { [self] in
                    handler(connection)
                    lock.locked { clients.remove(client) }
                    close(client)
                }
            } catch {
                lock.locked { clients.remove(client) }
                close(client)
            }
        }
    }

    /// The peer's pid, uid and gid (struct ucred: three 32-bit fields).
    static func peer(of fd: Int32) -> AgentPeer? {
        var cred = [Int32](repeating: 0, count: 3)
        var length = socklen_t(12)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) == 0, length == 12 else { return nil }
        return AgentPeer(pid: cred[0], uid: UInt32(bitPattern: cred[1]), gid: UInt32(bitPattern: cred[2]))
    }
}
