// The ssh-agent server: a private Unix socket whose every connection is an
// `AgentConversation` under the caller's policy. Frames above 256 KiB (or empty) close
// the connection without a reply, as ssh-agent does. How many clients are served at once
// is bounded (ConnectionLimits, UnixSocketServer), and a client that sends no whole request
// within the idle timeout is closed (the time taken to answer a request is not counted).

public final class AgentServer: Sendable {
    /// ssh-agent's limit on one message (ssh-agent.c AGENT_MAX_LEN).
    public static let maxFrame = 256 * 1024

    private let server: UnixSocketServer
    public var socketPath: String { server.path }

    /// What the socket server has done (clients held, accept calls), for tests.
    public var counters: SocketServerCounters { server.counters }
    public var limits: ConnectionLimits { server.limits }

    /// Creates the socket at `socketPath` and starts serving.
    public init(socketPath: String, policy: AgentPolicy, limits: ConnectionLimits = .forThisProcess()) throws {
        let idle = limits.idleTimeoutMilliseconds
        server = try UnixSocketServer(path: socketPath, limits: limits) { connection in
            var conversation = AgentConversation(peer: connection.peer, policy: policy)
            while let frame = connection.readFrame(maxLength: AgentServer.maxFrame, timeoutMilliseconds: idle) {
                guard connection.writeFrame(conversation.reply(to: frame)) else { return }
            }
        }
        try server.start()
    }

    /// Stops serving, closes every connection and removes the socket.
    public func stop() { server.stop() }
}
