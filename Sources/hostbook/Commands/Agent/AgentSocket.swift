// Agents' sockets as commands name them: the standing agent's `--socket PATH`, else the
// default (Workflows' StandingAgentSocket, which also finds, stops and checks the agent
// there); the upstream agents' `--upstream SOCKET` and `SOCKET` of `agent upstream
// add|remove` and `keys import-agent` (which sockets the agents sign through is Workflows'
// UpstreamAgentSockets). Each path given is checked by the one rule here.
import System
import Workflows

enum AgentSocket {
    /// `--socket PATH`, else `$XDG_RUNTIME_DIR/hostbook/agent.sock` (or the private
    /// per-uid folder without `$XDG_RUNTIME_DIR`), the folder created 0700 or checked.
    static func path(_ inv: Invocation) throws -> String {
        if let given = inv.args.value(.socket) { return try checked(given, option: "--socket") }
        return try StandingAgentSocket.defaultPath(environment: inv.environment)
    }

    /// An agent's socket path as given (`--socket`, `--upstream`, `agent upstream`'s SOCKET):
    /// absolute, and short enough for a Unix socket.
    static func checked(_ given: String, option: String) throws -> String {
        guard !given.isEmpty else { throw CLIError.usage("\(option) needs a socket path") }
        let path = SSHPaths.absolute(given)
        guard path.utf8.count <= PrivateSocketDirectory.maxSocketPath else {
            throw CLIError.usage("the socket path \(path.escapedForTerminal) is longer than \(PrivateSocketDirectory.maxSocketPath) bytes")
        }
        return path
    }

    /// The `--upstream` options of `agent start` / `agent run`, checked.
    static func upstreams(_ inv: Invocation) throws -> [String] {
        try inv.args.values(.upstream).map { try checked($0, option: "--upstream") }
    }
}
