// Where the standing agent listens, and whether one is listening there: a connect to the
// socket, and SO_PEERCRED on it for the agent's pid and uid (no pid file to go stale).
#if canImport(Glibc)
import Glibc
#endif
import System
import Agent

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
        return try defaultPath(environment: inv.environment)
    }

    static func defaultPath(environment: [String: String]) throws -> String {
        do {
            return try PrivateSocketDirectory.prepare(environment: environment) + "/agent.sock"
        } catch {
            throw CLIError.failure("cannot prepare the agent's folder: \(error)")
        }
    }

    /// The running agent's pid, when something of this user answers at `path`.
    static func runningAgent(at path: String) -> pid_t? {
        guard let fd = try? UnixSocket.connect(to: path) else { return nil }
        defer { close(fd) }
        guard let peer = UnixSocket.peerCredentials(fd), peer.uid == getuid() else { return nil }
        return peer.pid
    }

    /// A socket file nobody answers on (an agent that was killed): removed, so a new
    /// agent can listen there. Anything that is not a socket of this user is left alone.
    static func removeStale(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == getuid() else {
            throw CLIError.failure("'\(path.escapedForTerminal)' exists and is not an agent socket", hint: "Remove it, or choose another path with --socket.")
        }
        _ = unlink(path)
    }

    /// The executable of a process (ProcessChain.executable).
    static func executable(of pid: Int32) -> String? { ProcessChain.executable(of: pid) }
}
