// The words of each AgentRefusal (Workflows: the agent's socket, its start and stop, git's
// signing program, `agent approve`'s connection): what is wrong, what to do, and the documented exit code
// (docs/command-line.md, "Exit codes"); every one a failure (exit 1).
import Workflows

extension AgentRefusal: UserFacingError {
    var exitCode: ExitCode { .failure }

    var message: String {
        switch self {
        case .agentFolderNotPrepared(let reason):
            "cannot prepare the agent's folder: \(reason)"
        case .notAnAgentSocket(let path):
            "'\(path.escapedForTerminal)' exists and is not an agent socket"
        case .socketNotPrivate(let path):
            "'\(path.escapedForTerminal)' is not a socket of this user in a private folder"
        case .ownPathUnknown(let reason):
            "cannot find hostbook's own path: \(reason)"
        case .programNotRun(let program, let reason):
            "cannot run \(program): \(reason)"
        case .agentExited(let status):
            "the agent did not start (status \(status))"
        case .agentDidNotAnswer:
            "the agent did not answer within 10 seconds"
        case .alreadyRunning(let path, let pid):
            "an agent is already running at \(path.escapedForTerminal) (pid \(pid))"
        case .notStopped(let pid, let reason):
            "cannot stop the agent (pid \(pid)): \(reason)"
        case .serverNotStarted(let reason):
            "cannot start the agent: \(reason)"
        case .startedAgentCannotSign(let message, _):
            // The agent's words come from the vault and the database: escaped.
            "the agent started for git cannot sign with this key: \(message.escapedForTerminal)"
        case .sshKeygenNotInstalled:
            "ssh-keygen is not installed (no 'ssh-keygen' on PATH); git's signatures are verified with it"
        case .noAgent(let path):
            "no agent is running at \(path.escapedForTerminal)"
        case .takesNoApprovals(let agentSocket):
            "the agent at \(agentSocket.escapedForTerminal) takes no approvals"
        case .notThisUsersAgent(let path):
            "'\(path.escapedForTerminal)' is not this user's agent"
        case .approverBusy(let pid):
            "another 'hostbook agent approve' (pid \(pid)) answers the agent's requests"
        case .approverNotTaken(let agentSocket):
            "the agent at \(agentSocket.escapedForTerminal) did not take this approver"
        }
    }

    var hint: String? {
        switch self {
        case .agentFolderNotPrepared, .ownPathUnknown, .programNotRun, .notStopped, .serverNotStarted:
            nil
        case .notAnAgentSocket:
            "Remove it, or choose another path with --socket."
        case .socketNotPrivate:
            "Start the agent in its own folder (the default), or choose another socket with --socket."
        case .agentExited, .agentDidNotAnswer:
            "Run 'hostbook agent run' to see why."
        case .alreadyRunning:
            "Stop it with 'hostbook agent stop'."
        case .startedAgentCannotSign(_, let hint):
            hint.isEmpty ? "Run 'hostbook doctor' to see what is wrong, then run this again." : hint.escapedForTerminal
        case .sshKeygenNotInstalled:
            "Install OpenSSH's client (Debian: apt install openssh-client), then run this again."
        case .noAgent:
            "Start it with 'eval \"$(hostbook agent start)\"'."
        case .takesNoApprovals:
            "Restart it with 'hostbook agent stop' and 'eval \"$(hostbook agent start)\"'."
        case .notThisUsersAgent:
            "Remove it, or choose another socket with --socket."
        case .approverBusy:
            "Answer there, or stop it first."
        case .approverNotTaken:
            "Try again."
        }
    }
}
