// Where the standing agent listens, and whether one is listening there: a connect to the
// socket, and SO_PEERCRED on it for the agent's pid and uid (no pid file to go stale).
#if canImport(Glibc)
import Glibc
#endif
import System
import Agent

public enum StandingAgentSocket {
    /// The socket's name in hostbook's private socket folder.
    public static let fileName = "agent.sock"

    /// `$XDG_RUNTIME_DIR/hostbook/agent.sock` (or the private per-uid folder without
    /// `$XDG_RUNTIME_DIR`), the folder created 0700 or checked.
    public static func defaultPath(environment: [String: String]) throws(AgentRefusal) -> String {
        do {
            return try PrivateSocketDirectory.prepare(environment: environment) + "/" + fileName
        } catch {
            throw .agentFolderNotPrepared(reason: "\(error)")
        }
    }

    /// The running agent's pid, when something of this user answers at `path`.
    public static func runningAgent(at path: String) -> pid_t? {
        guard let fd = try? UnixSocket.connect(to: path) else { return nil }
        defer { close(fd) }
        guard let peer = UnixSocket.peerCredentials(fd), peer.uid == getuid() else { return nil }
        return peer.pid
    }

    /// Whether `path` is a socket now (what `agent upstream add` warns about when not).
    public static func isSocket(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
    }

    /// Where a command that uses the standing agent looks for it, in order: the default
    /// socket when its folder exists (nothing is created), then $SSH_AUTH_SOCK when that is
    /// another absolute path.
    public static func candidates(environment: [String: String]) -> [String] {
        var sockets: [String] = []
        if let folder = PrivateSocketDirectory.existing(environment: environment) { sockets.append(folder + "/" + fileName) }
        if let auth = environment["SSH_AUTH_SOCK"], auth.hasPrefix("/"), !sockets.contains(auth) { sockets.append(auth) }
        return sockets
    }

    /// Tells the standing agent to drop the private keys and grants it holds now
    /// (AgentDropKeys), at the default socket (without creating its folder) and at
    /// $SSH_AUTH_SOCK when that is another socket of this user. The pid of each agent that
    /// said it did, in that order.
    public static func dropKeys(environment: [String: String]) -> [pid_t] {
        candidates(environment: environment).compactMap { socket in
            guard let pid = runningAgent(at: socket), AgentDropKeys.send(socket: socket) else { return nil }
            return pid
        }
    }

    /// A socket file nobody answers on (an agent that was killed): removed, so a new
    /// agent can listen there. Anything that is not a socket of this user is left alone.
    public static func removeStale(_ path: String) throws(AgentRefusal) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == getuid() else {
            throw .notAnAgentSocket(path: path)
        }
        _ = unlink(path)
    }

    /// A socket hostbook connects to and trusts with answers (the approval socket): a socket
    /// of this user, in a folder of this user that no one else can write (so no one else
    /// can have put it there, or put it there again).
    public static func checkPrivate(_ path: String) throws(AgentRefusal) {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        var socket = stat(), dir = stat()
        guard lstat(path, &socket) == 0, socket.st_mode & S_IFMT == S_IFSOCK, socket.st_uid == getuid(),
              lstat(folder.isEmpty ? "/" : folder, &dir) == 0, dir.st_mode & S_IFMT == S_IFDIR, dir.st_uid == getuid(),
              dir.st_mode & 0o022 == 0 else {
            throw .socketNotPrivate(path: path)
        }
    }

    /// Stops the agent `pid` at `path` (SIGTERM) and waits up to 5 seconds for it to be gone.
    public static func stop(pid: pid_t, at path: String) throws(AgentRefusal) {
        guard kill(pid, SIGTERM) == 0 else {
            throw .notStopped(pid: pid, reason: String(cString: strerror(errno)))
        }
        for _ in 0..<500 {
            if access(path, F_OK) != 0 && kill(pid, 0) != 0 { break }
            usleep(10_000)
        }
    }
}
