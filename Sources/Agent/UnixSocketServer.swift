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
import System

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
        LengthPrefixedFrame.read(from: fd, minLength: 1, maxLength: maxLength)
    }

    /// `readFrame`, the whole frame within `timeoutMilliseconds` (nil when it did not come).
    public func readFrame(maxLength: Int, timeoutMilliseconds: Int32) -> [UInt8]? {
        LengthPrefixedFrame.read(from: fd, minLength: 1, maxLength: maxLength, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Writes one frame; false when the peer went away.
    public func writeFrame(_ body: [UInt8]) -> Bool {
        LengthPrefixedFrame.write(body, to: fd)
    }
}

/// What the server has done, for tests and diagnostics.
public struct SocketServerCounters: Sendable, Equatable {
    /// Accepts tried.
    public var acceptCalls = 0
    /// Accepts that failed for want of descriptors or memory.
    public var acceptsOutOfResources = 0
    /// Connections closed at once for being over the total or their process's share.
    public var closedOverLimit = 0
    /// Waits the accepting thread entered without polling the listener (at the descriptor
    /// budget, or out of descriptors): from then on it accepts nothing until woken.
    public var pausedWaits = 0
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
    private let lock = Lock()
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
        let fd: Int32
        do { fd = try UnixSocket.listen(at: path) } catch {
            let why = error.error.map { ": \($0)" } ?? ""
            switch error.step {
            case .socket: throw SocketError("cannot create a socket\(why)")
            case .listen: throw SocketError("cannot listen on \(path)\(why)")
            default: throw SocketError("cannot create the socket \(path)\(why)")
            }
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
        do { acceptThread = try Thread.spawn { [self] in acceptLoop() } } catch { throw SocketError(error.description) }
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
        if let acceptThread { Thread.join(acceptThread) }
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
                let pause = outOfResources || limits.atDescriptorBudget(clients.count)
                waitingForClient = pause
                if pause { counts.pausedWaits += 1 }
                return (!pause, !clients.isEmpty)
            }
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0), pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            let timeout: Int32 = pollListener || heldAny ? -1 : Self.outOfResourcesPauseMilliseconds
            guard let ready = try? Poll.wait(&fds, count: pollListener ? 2 : 1, timeoutMilliseconds: timeout) else { return }
            if ready == 0 || fds[0].revents != 0 {
                // Woken (a client went away, or stop) or the pause is over.
                var drain = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &drain, drain.count) > 0 {}
                if lock.locked({ stopped }) { return }
                outOfResources = false
                continue
            }
            guard pollListener, fds[1].revents != 0 else { continue }
            let accepted = UnixSocket.acceptConnection(listener)
            let outOfDescriptors: Bool
            if case .failure(let failure) = accepted { outOfDescriptors = [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(failure.code) } else { outOfDescriptors = false }
            lock.locked {
                counts.acceptCalls += 1
                if outOfDescriptors { counts.acceptsOutOfResources += 1 }
            }
            guard case .success(let client) = accepted else {
                // Anything else (EAGAIN, ECONNABORTED, an interrupted call) concerns one connection only.
                outOfResources = outOfDescriptors
                continue
            }
            guard let credentials = UnixSocket.peerCredentials(client),
                  credentials.uid == getuid() || credentials.uid == 0 else {
                close(client)
                continue
            }
            // Which program connected, pinned now (a pidfd): what it execs or whether it
            // exits later cannot make it another.
            let peer = AgentPeer(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid,
                                 process: ProcessIdentity(socket: client, pid: credentials.pid))
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
                try Thread.spawnDetached { [self] in
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
}
