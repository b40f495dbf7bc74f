// The words of the agents, given by the executable when it starts one (as ssh-agent is
// given its policy behind an interface): the prompt an approver shows and the sentence of a
// grant, the lines a requester's terminal is told (waiting for an approval, touch the
// security key, no approver), and the process chain as the agent's log keeps it. The
// Sessions library decides and holds none of these words: an ApprovalRequest carries raw
// names, fingerprints and command lines, and the wording escapes what it shows.
public import System

/// Whom a question was put to, as the requester is told.
public enum ApproverName: Sendable, Equatable {
    /// `hostbook agent approve` in a terminal (TerminalApprover).
    case agentApprove
    /// The program SSH_ASKPASS names, as it names it (AskpassApprover).
    case askpass(program: String)
}

public protocol AgentWording: Sendable {
    /// The whole prompt for `request`, one field a line (without the grant's sentence).
    func prompt(_ request: ApprovalRequest) -> String
    /// The sentence that goes with the grant choice (`choice`: how the approver names it,
    /// `[a]` or `Yes`): what a grant made by this answer covers, and for how long. nil when
    /// no grant can be made.
    func grantSentence(_ request: ApprovalRequest, choice: String) -> String?
    /// The line the requester's terminal is told once the question is put to `approver`.
    func waitingNotice(_ request: ApprovalRequest, approver: ApproverName) -> String
    /// The line the requester's terminal is told before a security key's authenticator is
    /// asked to sign (it may wait for a touch).
    func touchNotice(_ request: ApprovalRequest) -> String
    /// The line the requester's terminal is told when nobody could be asked.
    func noApproverNotice(_ request: ApprovalRequest) -> String
    /// The client and its ancestors (the client first) as the agent's log keeps them; nil
    /// for none.
    func processChain(_ chain: [RunningProcess]) -> String?
}

extension AgentWording {
    /// The prompt, then the grant's sentence (when a grant can be made) just above the
    /// question that offers it.
    func promptWithGrant(_ request: ApprovalRequest, choice: String) -> String {
        prompt(request) + (grantSentence(request, choice: choice).map { "\n" + $0 } ?? "")
    }
}
