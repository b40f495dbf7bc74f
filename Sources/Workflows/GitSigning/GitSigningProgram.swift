// The work of `hostbook -Y OPERATION ...`, hostbook as git's gpg.ssh.program: where the
// agent that signs is looked for, starting it when git's configuration asks
// (hostbook.startAgent), and the real ssh-keygen for every operation hostbook does not do
// itself. `-Y sign` with a public key file is Sessions' GitSignatureProgram; the executable
// dispatches on `-Y` and reports the errors (Commands/Git/GitSSHKeygenProgram.swift).
#if canImport(Glibc)
import Glibc
#endif
import Sessions
import System

public enum GitSigningProgram {
    /// The standing agent's socket (when its folder exists: nothing is created here), then
    /// $SSH_AUTH_SOCK; neither: the default socket's name, for the error that nothing answers.
    public static func sockets(_ environment: [String: String]) -> [String] {
        let sockets = StandingAgentSocket.candidates(environment: environment)
        return sockets.isEmpty ? ["$XDG_RUNTIME_DIR/hostbook/" + StandingAgentSocket.fileName] : sockets
    }

    /// Whether an agent answers at any of `sockets`.
    public static func agentAnswers(_ sockets: [String]) -> Bool {
        sockets.contains { StandingAgentSocket.runningAgent(at: $0) != nil }
    }

    /// When no agent answers at any of `sockets` and git's configuration says
    /// hostbook.startAgent (GitAgentAutostart): starts the standing agent at its own socket as
    /// `hostbook agent start` does (AgentLaunch), and waits until it can sign with the key; a
    /// key it cannot sign with (a locked vault, a missing item) is `startedAgentCannotSign`.
    /// Otherwise nothing: signing then reports the agent that is not running.
    public static func startAgentIfAsked(sockets: [String], keyBlob: [UInt8], environment: [String: String]) throws(AgentRefusal) {
        guard !agentAnswers(sockets), GitAgentAutostart.isRequested(environment: environment) else { return }
        let socket = try StandingAgentSocket.defaultPath(environment: environment)
        _ = try AgentLaunch.start(databasePath: Workspace.databasePath(environment: environment), socket: socket, environment: environment)
        if case .cannotSign(_, let message, let hint) = AgentReadiness.check(socket: socket, keyBlob: keyBlob) {
            throw .startedAgentCannotSign(message: message, hint: hint)
        }
    }

    /// Runs ssh-keygen with `argv` on this process's standard streams; its exit status.
    public static func sshKeygen(_ argv: [String], environment: [String: String]) throws(AgentRefusal) -> Int32 {
        guard let program = ExecutablePath.find("ssh-keygen", searchPath: environment["PATH"]) else {
            throw .sshKeygenNotInstalled
        }
        let pid: pid_t
        do {
            pid = try Spawn.start(program, ["ssh-keygen"] + argv, Spawn.Options(defaultSignals: [SIGPIPE], environment: Spawn.Options.environment(environment)))
        } catch {
            throw .programNotRun(program: program, reason: "\(error)")
        }
        return WaitStatus.wait(pid).exitCode
    }
}
