// How many clients the socket server holds at once. Every client costs a thread and a
// descriptor, and a process that opens connections without end (the ssh carrying a
// forwarded agent, at a remote's bidding) must neither freeze the server, nor starve the
// other local clients, nor take the descriptors the rest of the process needs (SQLite's
// files, the vault's D-Bus connection, libdispatch's event descriptors). A client that
// connects and sends nothing (or half a request) is closed after `idleTimeoutMilliseconds`,
// so clients of this user cannot hold every slot for good by keeping idle connections
// (ssh-agent has no such limit; its clients ask and go). Only the wait for a request
// counts: a client whose request is being answered (a confirm key waiting for the user) is
// not idle.
#if canImport(Glibc)
import Glibc
#endif
import System

public struct ConnectionLimits: Sendable, Equatable {
    /// Clients served at once; a connection beyond them is closed as soon as it is accepted.
    public var maxClients: Int
    /// Clients of one process (the pid from SO_PEERCRED) at once, closed beyond that the
    /// same way: one process cannot take every slot.
    public var maxClientsPerPeer: Int
    /// Descriptors the clients may hold, `descriptorsPerClient` each (the socket, and the
    /// pidfd that pins which program connected: ProcessIdentity). With this many open the
    /// listener is not polled until a client goes away (ssh-agent.c's main loop stops
    /// polling its listener at its descriptor limit), so the rest of the process always has
    /// descriptors to open.
    public var descriptorBudget: Int
    /// How long a client may take to send a whole request (the first after connecting, or
    /// the next after an answer) before its connection is closed.
    public var idleTimeoutMilliseconds: Int32

    public static let descriptorsPerClient = 2
    /// A minute without a complete request closes a client's connection.
    public static let defaultIdleTimeoutMilliseconds: Int32 = 60_000

    public static let defaultMaxClients = 128
    public static let defaultMaxClientsPerPeer = 32
    /// Descriptors kept free beyond those open when serving starts.
    public static let reservedDescriptors = 24

    public init(maxClients: Int, maxClientsPerPeer: Int, descriptorBudget: Int,
                idleTimeoutMilliseconds: Int32 = defaultIdleTimeoutMilliseconds) {
        self.maxClients = max(1, maxClients)
        self.maxClientsPerPeer = max(1, maxClientsPerPeer)
        self.descriptorBudget = max(1, descriptorBudget)
        self.idleTimeoutMilliseconds = max(1, idleTimeoutMilliseconds)
    }

    /// Whether `clients` clients hold the whole descriptor budget.
    func atDescriptorBudget(_ clients: Int) -> Bool { clients * Self.descriptorsPerClient >= descriptorBudget }

    /// The limits under this process's RLIMIT_NOFILE: the budget is the soft limit less the
    /// descriptors open now and the reserve; one peer gets at most half of what the clients
    /// may hold together.
    public static func forThisProcess(maxClients: Int = defaultMaxClients,
                                      maxClientsPerPeer: Int = defaultMaxClientsPerPeer) -> ConnectionLimits {
        var limit = rlimit()
        var soft = Int.max
        // RLIM_INFINITY is all ones.
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max { soft = Int(clamping: limit.rlim_cur) }
        let budget = soft == Int.max ? Int.max : soft - openDescriptors() - reservedDescriptors
        let held = min(maxClients, max(1, budget / descriptorsPerClient))
        return ConnectionLimits(maxClients: maxClients, maxClientsPerPeer: min(maxClientsPerPeer, max(1, held / 2)),
                                descriptorBudget: budget)
    }

    /// The number of descriptors this process has open (/proc/self/fd, less the one
    /// reading it); 0 when that cannot be read (the reserve is still kept).
    static func openDescriptors() -> Int {
        guard let names = FolderNames.of("/proc/self/fd") else { return 0 }
        return max(0, names.count - 1)
    }
}
