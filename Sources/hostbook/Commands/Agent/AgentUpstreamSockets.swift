// The upstream agents' sockets as commands name them: `--upstream SOCKET` of `agent start` /
// `agent run`, `SOCKET` of `agent upstream add|remove` and `keys import-agent`. Which sockets
// the agents sign through is Workflows' UpstreamAgentSockets.
import HostStore
import System
import Workflows

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
}
