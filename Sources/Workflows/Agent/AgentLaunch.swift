// Starting the standing agent in the background: `hostbook agent start`, and `hostbook -Y
// sign` when git's configuration asks it to (GitAgentAutostart). One way to start it: hostbook
// itself as `agent run`, detached in its own session (the terminal's hangup does not reach
// it) with nothing of the caller's open, ready when it answers at its socket.
#if canImport(Glibc)
import Glibc
#endif
import System

public enum AgentLaunch {
    /// Starts `hostbook --db DATABASE agent run --socket SOCKET` and waits until it answers
    /// there; its pid. A stale socket file is removed first. An agent that exits first, or
    /// does not answer within 10 seconds, is an AgentRefusal. The agent gets `environment`
    /// (the command's: its SSH_ASKPASS, DISPLAY and session bus are the agent's).
    public static func start(databasePath: String, socket path: String, upstreams: [String] = [],
                             environment: [String: String]) throws(AgentRefusal) -> pid_t {
        try StandingAgentSocket.removeStale(path)
        let exe = try ownPath()
        // Nothing else of ours: a pipe the caller reads to its end (git's, or the shell's of
        // `eval "$(hostbook agent start)"`) must not stay open in the agent. Marking every
        // descriptor close-on-exec is harmless: the caller spawns nothing that needs one.
        for fd in 3..<Int32(1024) where fcntl(fd, F_GETFD) >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // Its own session, so the terminal's hangup does not reach it.
        let options = Spawn.Options(fileActions: Spawn.Options.nullInput(output: true) + [.open(STDERR_FILENO, path: "/dev/null", flags: O_WRONLY)],
                                    newSession: true, environment: Spawn.Options.environment(environment))
        let pid: pid_t
        do {
            pid = try Spawn.start(exe, [exe, "--db", ExecutablePath.absolute(databasePath), "agent", "run", "--socket", path]
                                         + upstreams.flatMap { ["--upstream", $0] }, options)
        } catch {
            throw .programNotRun(program: exe, reason: "\(error)")
        }
        // Ready when it answers; an agent that exits first failed to start.
        for _ in 0..<1000 {
            if let answering = StandingAgentSocket.runningAgent(at: path), answering == pid { return pid }
            if let ended = WaitStatus.ifEnded(pid) { throw .agentExited(status: ended.exitCode) }
            usleep(10_000)
        }
        kill(pid, SIGTERM)
        throw .agentDidNotAnswer
    }

    /// This program's own absolute path.
    public static func ownPath() throws(AgentRefusal) -> String {
        do { return try ExecutablePath.ofThisProcess() } catch {
            throw .ownPathUnknown(reason: "\(error)")
        }
    }
}
