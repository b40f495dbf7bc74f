// The agent's socket as a command names it: `--socket PATH`, else the default
// (Workflows' StandingAgentSocket, which also finds, stops and checks the agent there).
import System
import Workflows

enum AgentSocket {
    /// `--socket PATH`, else `$XDG_RUNTIME_DIR/hostbook/agent.sock` (or the private
    /// per-uid folder without `$XDG_RUNTIME_DIR`), the folder created 0700 or checked.
    static func path(_ inv: Invocation) throws -> String {
        if let given = inv.args.value(.socket) {
            guard !given.isEmpty else { throw CLIError.usage("--socket needs a path") }
            let path = SSHPaths.absolute(given)
            guard path.utf8.count <= PrivateSocketDirectory.maxSocketPath else {
                throw CLIError.usage("the socket path is longer than \(PrivateSocketDirectory.maxSocketPath) bytes")
            }
            return path
        }
        return try StandingAgentSocket.defaultPath(environment: inv.environment)
    }
}
