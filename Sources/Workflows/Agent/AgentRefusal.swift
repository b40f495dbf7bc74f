// What the agent's, git signing's and the keyring's workflows refuse, as data: each case
// carries the paths, pids and reasons the caller needs to say so. The executable words each
// case and maps it to an exit code (Sources/hostbook, AgentRefusal+Presentation.swift).
public enum AgentRefusal: Error, Sendable, Equatable {
    /// The agent's private folder could not be made or checked: `reason`.
    case agentFolderNotPrepared(reason: String)
    /// Something that is not a socket of this user is at `path`, where the agent would listen.
    case notAnAgentSocket(path: String)
    /// `path` is not a socket of this user in a folder only this user can write.
    case socketNotPrivate(path: String)
    /// hostbook's own path could not be found: `reason`.
    case ownPathUnknown(reason: String)
    /// `program` could not be started: `reason`.
    case programNotRun(program: String, reason: String)
    /// The agent started ended with `status` before it answered.
    case agentExited(status: Int32)
    /// The agent started did not answer at its socket in time.
    case agentDidNotAnswer
    /// An agent (pid `pid`) already answers at `path`.
    case alreadyRunning(path: String, pid: Int32)
    /// The agent (pid `pid`) could not be told to stop: `reason`.
    case notStopped(pid: Int32, reason: String)
    /// The agent's socket could not be listened on: `reason`.
    case serverNotStarted(reason: String)
    /// The agent started for git cannot sign with the key: the agent's `message` and `hint`
    /// (raw: they come from the vault and the database).
    case startedAgentCannotSign(message: String, hint: String)
    /// No ssh-keygen on PATH (git's signatures are verified with it).
    case sshKeygenNotInstalled

    // MARK: `agent approve`'s connection (ApproverConnection)

    /// No agent answers at `path`.
    case noAgent(path: String)
    /// The agent at `agentSocket` has no approval socket.
    case takesNoApprovals(agentSocket: String)
    /// What answers at the approval socket `path` is not a process of this user.
    case notThisUsersAgent(path: String)
    /// Another approver (pid `pid`) answers the agent's requests.
    case approverBusy(pid: Int32)
    /// The agent at `agentSocket` did not take this approver.
    case approverNotTaken(agentSocket: String)
}
