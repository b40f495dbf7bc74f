// Who answers an approval: the program in $SSH_ASKPASS (AskpassApprover), `hostbook agent
// approve` in a terminal, or a test's own. Injected into the agent like its access policy,
// so the decision is the same whoever answers.

/// An approver's answer.
public enum ApprovalAnswer: Sendable, Equatable {
    /// This signature only.
    case allowOnce
    /// This signature, and the same key, destination and program for the key's grant.
    case allowForGrant
    case deny
    /// No answer within the time given.
    case timeout
    /// Nobody could be asked (no askpass, no approving terminal).
    case unavailable
}

public protocol AgentApprover: Sendable {
    /// Asks about `request`, waiting at most `timeoutSeconds` for the answer.
    func ask(_ request: ApprovalRequest, timeoutSeconds: Int) -> ApprovalAnswer
}

/// Asks the first approver that can be asked (an `unavailable` answer passes on to the next).
public struct FirstAvailableApprover: AgentApprover {
    public let approvers: [any AgentApprover]

    public init(_ approvers: [any AgentApprover]) { self.approvers = approvers }

    public func ask(_ request: ApprovalRequest, timeoutSeconds: Int) -> ApprovalAnswer {
        for approver in approvers {
            let answer = approver.ask(request, timeoutSeconds: timeoutSeconds)
            if answer != .unavailable { return answer }
        }
        return .unavailable
    }
}
