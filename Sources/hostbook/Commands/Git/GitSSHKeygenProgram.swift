// `hostbook -Y OPERATION ...`: hostbook as git's gpg.ssh.program (`hostbook git setup` sets
// it). git runs the program with ssh-keygen's arguments and nothing else (no shell, no
// subcommand word), so the first argument `-Y` is the command. `-Y sign` with a public key
// file signs through hostbook's standing agent at its own socket, then $SSH_AUTH_SOCK
// (GitSignatureProgram): it works in a shell without SSH_AUTH_SOCK; with git's
// hostbook.startAgent set, an agent that is not running is started first. Everything else (`-Y
// verify`, `-Y find-principals`, `-Y check-novalidate`, a private key file) runs the real
// ssh-keygen with the same arguments, standard input, output and error, and ends with its
// status. Not listed in the help: plumbing for git (docs/command-line.md, "git").
#if canImport(Glibc)
import Glibc
#endif
import Sessions
import System
import Workflows

enum GitSSHKeygenProgram {
    /// The first argument that makes hostbook speak ssh-keygen's `-Y` interface.
    static let word = "-Y"

    static func main(_ argv: [String], environment: [String: String]) -> Int32 {
        do {
            if let request = try GitSignatureProgram.signRequest(argv),
               let key = try GitSignatureProgram.publicKey(in: request.keyFile) {
                let sockets = sockets(environment)
                try startAgentIfAsked(sockets: sockets, keyBlob: key.key.blob, environment: environment)
                try GitSignatureProgram.sign(request, key: key, sockets: sockets)
                return ExitCode.ok.rawValue
            }
            return try sshKeygen(argv, environment: environment)
        } catch let error as UserFacingError {
            Hostbook.report(message: error.message, hint: error.hint)
            return error.exitCode.rawValue
        } catch {
            Hostbook.report(message: "unexpected error: \(error)", hint: nil)
            return ExitCode.failure.rawValue
        }
    }

    /// The standing agent's socket (when its folder exists: nothing is created here), then
    /// $SSH_AUTH_SOCK; neither: the default socket's name, for the error that nothing answers.
    static func sockets(_ environment: [String: String]) -> [String] {
        var sockets: [String] = []
        if let folder = PrivateSocketDirectory.existing(environment: environment) { sockets.append(folder + "/agent.sock") }
        if let auth = environment["SSH_AUTH_SOCK"], auth.hasPrefix("/"), !sockets.contains(auth) { sockets.append(auth) }
        if sockets.isEmpty { sockets.append("$XDG_RUNTIME_DIR/hostbook/agent.sock") }
        return sockets
    }

    /// When no agent answers at any of `sockets` and git's configuration says
    /// hostbook.startAgent (GitAgentAutostart): starts the standing agent at its own socket as
    /// `hostbook agent start` does (AgentLaunch), and waits until it can sign with the key; a
    /// key it cannot sign with (a locked vault, a missing item) is its one-line error with the
    /// fix. Otherwise nothing: signing then reports the agent that is not running.
    static func startAgentIfAsked(sockets: [String], keyBlob: [UInt8], environment: [String: String]) throws {
        guard !sockets.contains(where: { AgentSocket.runningAgent(at: $0) != nil }),
              GitAgentAutostart.isRequested(environment: environment) else { return }
        let socket = try AgentSocket.defaultPath(environment: environment)
        _ = try AgentLaunch.start(databasePath: Workspace.databasePath(environment: environment), socket: socket)
        if case .cannotSign(_, let message, let hint) = AgentReadiness.check(socket: socket, keyBlob: keyBlob) {
            // The agent's words come from the vault and the database: escaped.
            throw CLIError.failure("the agent started for git cannot sign with this key: \(message.escapedForTerminal)",
                                   hint: hint.isEmpty ? "Run 'hostbook doctor' to see what is wrong, then run this again." : hint.escapedForTerminal)
        }
    }

    /// Runs ssh-keygen with `argv` on this process's standard streams; its exit status.
    static func sshKeygen(_ argv: [String], environment: [String: String]) throws -> Int32 {
        guard let program = ExecutablePath.find("ssh-keygen", searchPath: environment["PATH"]) else {
            throw CLIError.failure("ssh-keygen is not installed (no 'ssh-keygen' on PATH); git's signatures are verified with it",
                                   hint: "Install OpenSSH's client (Debian: apt install openssh-client), then run this again.")
        }
        let pid: pid_t
        do {
            pid = try Spawn.start(program, ["ssh-keygen"] + argv, Spawn.Options(defaultSignals: [SIGPIPE]))
        } catch {
            throw CLIError.failure("cannot run \(program): \(error)")
        }
        return WaitStatus.wait(pid).exitCode
    }
}
