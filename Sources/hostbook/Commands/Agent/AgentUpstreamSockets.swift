// Which upstream agents hostbook's agents sign through: the `--upstream SOCKET` options of
// `agent start` / `agent run` first, then the saved setting (AgentUpstreams: `keys
// import-agent` and `agent upstream add`), each once. hostbook's own agent socket is never
// its own upstream (a request would go round in a circle until its time ran out).
import HostStore
import System
import Sessions

enum AgentUpstreamSockets {
    /// A socket path as given: absolute, short enough for a Unix socket.
    static func checked(_ given: String, option: String = "--upstream") throws -> String {
        guard !given.isEmpty else { throw CLIError.usage("\(option) needs a socket path") }
        let path = SSHPaths.absolute(given)
        guard path.utf8.count <= PrivateSocketDirectory.maxSocketPath else {
            throw CLIError.usage("the socket path \(path.escapedForTerminal) is longer than \(PrivateSocketDirectory.maxSocketPath) bytes")
        }
        return path
    }

    /// The `--upstream` options, checked.
    static func given(_ inv: Invocation) throws -> [String] {
        try inv.args.values(.upstream).map { try checked($0) }
    }

    /// `given`, then the saved ones, without `ownSocket`.
    static func all(given: [String], database: HostDatabase?, ownSocket: String?) throws -> [String] {
        let saved = try database.map { try AgentUpstreams(database: $0).list() } ?? []
        var seen: Set<String> = []
        return (given + saved).filter { $0 != ownSocket && seen.insert($0).inserted }
    }
}
