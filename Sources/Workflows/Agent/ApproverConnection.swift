// `hostbook agent approve`'s connection to the standing agent's private approval socket
// (TerminalApprover: the agent's socket's path and `.approve`), checked as the agent's socket
// is: a socket of this user in a folder no one else can write, answered by a process of this
// user. Only one approver at a time: the agent answers a second with `busy`. The executable
// shows each question and reads the answer (Commands/Agent/AgentApprove.swift).
#if canImport(Glibc)
import Glibc
#endif
import Sessions
import System

public final class ApproverConnection {
    private let fd: Int32

    /// What the agent sends an approver.
    public enum Event: Sendable, Equatable {
        /// Another `agent approve` (pid) tried to answer and was refused.
        case another(pid: Int32)
        /// A signature to approve: its `id`, the key's grant (nil: none can be made), the
        /// agent's description of the request (raw: escaped when shown).
        case question(id: UInt64, grant: String?, prompt: String)
    }

    /// Connects to the approval socket of the agent at `agentSocket` and waits for it to take
    /// this approver.
    public init(agentSocket: String) throws(AgentRefusal) {
        let path = TerminalApprover.socketPath(forAgentAt: agentSocket)
        guard StandingAgentSocket.runningAgent(at: agentSocket) != nil else { throw .noAgent(path: agentSocket) }
        guard let fd = try? UnixSocket.connect(to: path) else { throw .takesNoApprovals(agentSocket: agentSocket) }
        self.fd = fd
        try StandingAgentSocket.checkPrivate(path)
        guard let peer = UnixSocket.peerCredentials(fd), peer.uid == getuid() else { throw .notThisUsersAgent(path: path) }
        switch LengthPrefixedFrame.read(from: fd, maxLength: ApprovalWire.maxFrame, timeoutMilliseconds: 10_000).flatMap(ApprovalWire.message) {
        case .ready?: break
        case .busy(let pid)?: throw .approverBusy(pid: pid)
        default: throw .approverNotTaken(agentSocket: agentSocket)
        }
    }

    deinit { close(fd) }

    /// The next event; nil once the agent stopped (or the connection ended).
    public func next() -> Event? {
        while let frame = LengthPrefixedFrame.read(from: fd, maxLength: ApprovalWire.maxFrame) {
            switch ApprovalWire.message(frame) {
            case .another(let pid)?: return .another(pid: pid)
            case .question(let id, let grant, let prompt)?: return .question(id: id, grant: grant, prompt: prompt)
            default: continue
            }
        }
        return nil
    }

    /// Sends `answer` to question `id`; false when the agent is gone.
    public func answer(id: UInt64, _ answer: ApprovalAnswer) -> Bool {
        LengthPrefixedFrame.write(ApprovalWire.answer(id: id, answer), to: fd)
    }
}
