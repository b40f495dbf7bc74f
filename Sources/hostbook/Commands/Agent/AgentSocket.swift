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

    /// Tells the standing agent to drop the private keys and grants it holds now
    /// (AgentDropKeys), at the default socket (without creating its folder) and at
    /// $SSH_AUTH_SOCK when that is another socket of this user. The pid of each agent that
    /// said it did, in that order.
    static func dropKeys(environment: [String: String]) -> [pid_t] {
        var sockets: [String] = []
        if let folder = PrivateSocketDirectory.existing(environment: environment) { sockets.append(folder + "/agent.sock") }
        if let auth = environment["SSH_AUTH_SOCK"], auth.hasPrefix("/"), !sockets.contains(auth) { sockets.append(auth) }
        return sockets.compactMap { socket in
            guard let pid = runningAgent(at: socket), AgentDropKeys.send(socket: socket) else { return nil }
            return pid
        }
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

    /// A socket hostbook connects to and trusts with answers (the approval socket): a socket
    /// of this user, in a folder of this user that no one else can write (so no one else
    /// can have put it there, or put it there again).
    static func checkPrivate(_ path: String) throws {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        var socket = stat(), dir = stat()
        guard lstat(path, &socket) == 0, socket.st_mode & S_IFMT == S_IFSOCK, socket.st_uid == getuid(),
              lstat(folder.isEmpty ? "/" : folder, &dir) == 0, dir.st_mode & S_IFMT == S_IFDIR, dir.st_uid == getuid(),
              dir.st_mode & 0o022 == 0 else {
            throw CLIError.failure("'\(path.escapedForTerminal)' is not a socket of this user in a private folder",
                                   hint: "Start the agent in its own folder (the default), or choose another socket with --socket.")
        }
    }
}
