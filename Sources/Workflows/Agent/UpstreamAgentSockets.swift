// Which upstream agents hostbook's agents sign through: the `--upstream SOCKET` options of
// `agent start` / `agent run` first, then the saved setting (AgentUpstreams: `keys
// import-agent` and `agent upstream add`), each once. hostbook's own agent socket is never
// its own upstream (a request would go round in a circle until its time ran out).
import Agent
import HostStore

public enum UpstreamAgentSockets {
    /// `given`, then the saved ones, without `ownSocket`.
    public static func all(given: [String], database: HostDatabase?, ownSocket: String?) throws -> [String] {
        let saved = try database.map { try AgentUpstreams(database: $0).list() } ?? []
        var seen: Set<String> = []
        return (given + saved).filter { $0 != ownSocket && seen.insert($0).inserted }
    }

    /// Each saved socket with how many keys the agent there lists now, or why it lists none
    /// (`agent upstream list`); none saved, or no database: empty.
    public static func states(database: HostDatabase?) throws -> [(socket: String, state: Result<Int, UpstreamAgentError>)] {
        let sockets = try database.map { try AgentUpstreams(database: $0).list() } ?? []
        return sockets.map { socket in
            (socket, Result { () throws(UpstreamAgentError) -> Int in try UpstreamAgent(socket: socket).identities().count })
        }
    }

    /// Saves `socket` (`agent upstream add`); true when it was not saved before.
    public static func add(_ socket: String, database: HostDatabase) throws -> Bool {
        try AgentUpstreams(database: database).add(socket)
    }

    /// Forgets `socket` (`agent upstream remove`); false when it was not saved.
    public static func remove(_ socket: String, database: HostDatabase) throws -> Bool {
        try AgentUpstreams(database: database).remove(socket)
    }
}
