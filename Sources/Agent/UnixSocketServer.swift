// A listening Unix stream socket that serves several clients at once: one thread accepts,
// one thread per client runs the handler. The socket file is created 0600 (umask 0177
// around bind) and every peer's uid is checked with SO_PEERCRED: only this user (and
// root, as ssh-agent allows) is served. `stop()` closes the listener and every client,
// waits for their threads, and removes the socket file.
//
// Clients are bounded (ConnectionLimits): one over the total or its process's share is
// closed as soon as it is accepted; at the descriptor budget, or when accept runs out of
// descriptors or memory, the listener is left unpolled until a client goes away (or, when
// none is held, a second has passed), so a flood neither spins the accepting thread nor
// takes the descriptors the rest of the process needs. A thread that cannot be started
// closes its client.
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

/// What the server has done, for tests and diagnostics.
public struct SocketServerCounters: Sendable, Equatable {
    /// accept(2) calls made.
    public var acceptCalls = 0
    /// accept(2) calls that failed for want of descriptors or memory.
    public var acceptsOutOfResources = 0
    /// Connections closed at once for being over the total or their process's share.
    public var closedOverLimit = 0
    /// Clients being served now, and the most served at once.
    public var active = 0
    public var peak = 0
}

public final class UnixSocketServer: @unchecked Sendable {
    public let path: String
    public let limits: ConnectionLimits
    private let listener: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let handler: @Sendable (UnixConnection) -> Void
    private let lock = Mutex()
    private var clients: Set<Int32> = []
    private var clientsOfPeer: [Int32: Int] = [:]
    /// True while the accepting thread waits for a client to go away (it is then woken).
    private var waitingForClient = false
    private var counts = SocketServerCounters()
    private var stopped = false
    private var acceptThread: pthread_t?

    /// How long accepting pauses after running out of descriptors when no client is held
    /// whose going away would wake it (the descriptors are then the rest of the process's).
    static let outOfResourcesPauseMilliseconds: Int32 = 1_000

    /// Binds and listens at `path` (which must not exist). Serving starts with `start()`.
    public init(path: String, limits: ConnectionLimits = .forThisProcess(), handler: @escaping @Sendable (UnixConnection) -> Void) throws {
        guard path.utf8.count <= PrivateSocketDirectory.maxSocketPath else { throw SocketError("the socket path is too long") }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
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
        // Non-blocking: a wake-up never waits on a full pipe, and draining stops when empty.
        for p in pipeFDs {
            _ = fcntl(p, F_SETFD, FD_CLOEXEC)
            _ = fcntl(p, F_SETFL, fcntl(p, F_GETFL) | O_NONBLOCK)
        }
        self.path = path
        self.limits = limits
        self.listener = fd
        self.wakeRead = pipeFDs[0]
        self.wakeWrite = pipeFDs[1]
        self.handler = handler
    }

    deinit { stop() }

    /// What the server has done so far.
    public var counters: SocketServerCounters { lock.locked { counts } }

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
        wake()
        if let acceptThread { pthread_join(acceptThread, nil) }
        // Client threads finish once their sockets are shut down.
        while lock.locked({ !clients.isEmpty }) { usleep(1_000) }
        close(listener)
        close(wakeRead)
        close(wakeWrite)
        unlink(path)
    }

    /// One byte down the wake pipe; a full pipe already holds a wake-up.
    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func acceptLoop() {
        var outOfResources = false
        while true {
            // The listener is polled only while a client more can be held.
            let (pollListener, heldAny): (Bool, Bool) = lock.locked {
                let pause = outOfResources || clients.count >= limits.descriptorBudget
                waitingForClient = pause
                return (!pause, !clients.isEmpty)
            }
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0), pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            let timeout: Int32 = pollListener || heldAny ? -1 : Self.outOfResourcesPauseMilliseconds
            let ready = poll(&fds, pollListener ? 2 : 1, timeout)
            if ready < 0 { if errno == EINTR { continue }; return }
            if ready == 0 || fds[0].revents != 0 {
                // Woken (a client went away, or stop) or the pause is over.
                var drain = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &drain, drain.count) > 0 {}
                if lock.locked({ stopped }) { return }
                outOfResources = false
                continue
            }
            guard pollListener, fds[1].revents != 0 else { continue }
            let client = accept(listener, nil, nil)
            let failure = errno
            let outOfDescriptors = client < 0 && [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(failure)
            lock.locked {
                counts.acceptCalls += 1
                if outOfDescriptors { counts.acceptsOutOfResources += 1 }
            }
            if client < 0 {
                // Anything else (EAGAIN, ECONNABORTED, EINTR) concerns one connection only.
                outOfResources = outOfDescriptors
                continue
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            guard let peer = Self.peer(of: client), peer.uid == getuid() || peer.uid == 0 else {
                close(client)
                continue
            }
            enum Admission { case served, overLimit, stopped }
            let admission: Admission = lock.locked {
                if stopped { return .stopped }
                guard clients.count < limits.maxClients, clientsOfPeer[peer.pid, default: 0] < limits.maxClientsPerPeer else {
                    counts.closedOverLimit += 1
                    return .overLimit
                }
                clients.insert(client)
                clientsOfPeer[peer.pid, default: 0] += 1
                counts.active = clients.count
                counts.peak = max(counts.peak, clients.count)
                return .served
            }
            switch admission {
            case .stopped: close(client); return
            case .overLimit: close(client); continue
            case .served: break
            }
            let connection = UnixConnection(fd: client, peer: peer)
            let handler = self.handler
            do {
                try Threads.spawnDetached { [self] in
                    handler(connection)
                    release(client, of: peer)
                }
            } catch {
                release(client, of: peer)
            }
        }
    }

    /// A client's end: it leaves the books (waking the accepting thread when that waits
    /// for one to go away; under the lock, so the pipe is still open) and is closed.
    private func release(_ client: Int32, of peer: AgentPeer) {
        lock.locked {
            clients.remove(client)
            let left = clientsOfPeer[peer.pid, default: 1] - 1
            clientsOfPeer[peer.pid] = left > 0 ? left : nil
            counts.active = clients.count
            if waitingForClient {
                waitingForClient = false
                wake()
            }
        }
        close(client)
    }

    /// The peer's pid, uid and gid (struct ucred: three 32-bit fields).
    static func peer(of fd: Int32) -> AgentPeer? {
        var cred = [Int32](repeating: 0, count: 3)
        var length = socklen_t(12)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) == 0, length == 12 else { return nil }
        return AgentPeer(pid: cred[0], uid: UInt32(bitPattern: cred[1]), gid: UInt32(bitPattern: cred[2]))
    }
}
