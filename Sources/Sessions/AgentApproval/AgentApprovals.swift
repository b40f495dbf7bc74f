// What a confirm key's signature waits on (`hostbook keys edit NAME --confirm`): a grant
// still running, else the approver's answer to this request's own prompt. One decision per
// request, as ssh-agent.c decides each signature (identity_permitted, then confirm_key): an
// answer applies to exactly the request it showed (key, destination host key, what is
// signed and the digest of its data, the program), never to another that was not shown,
// however alike. Only "allow for the grant" reaches further: for the key's `--grant` it
// covers the request's grant scope (ApprovalRequest.GrantScope: key × destination × program,
// with an interpreter's script, × SSHSIG namespace). Grants live only in this agent's memory,
// and `clear()` (the agent locked) forgets them all. A forwarded request, or one from a
// program that cannot be identified, makes no grant and is covered by none.
//
// No prompt storm for a granting key: while one request of a grant scope is asked, the
// others of that scope wait for its answer; if it made a grant they are covered by it, if
// not, each is asked in turn with its own prompt. Every prompt waits at most `timeoutSeconds`.
//
// The standing agent's approvals tell the requester (`tellsRequester`): a request refused
// because nobody could be asked puts one line on the requesting program's own terminal
// (ApprovalRequest.tellRequester); an approver that puts the question to someone says so
// there itself (TerminalApprover, AskpassApprover). Both agents tell it to touch a security
// key (`tellToTouch`). The lines are the executable's words (`wording`): without one,
// nobody is told.
import System

public final class AgentApprovals: @unchecked Sendable {
    /// How a signature was decided, as the agent's log records it.
    public enum Decision: String, Sendable {
        case prompt, grant, noConfirm = "no-confirm", denied, noApprover = "no-approver", timeout

        public var allows: Bool { self == .prompt || self == .grant || self == .noConfirm }
    }

    /// ssh-agent gives no limit; a request left unanswered ties up its client, so 60 s.
    public static let defaultTimeoutSeconds = 60

    public let approver: (any AgentApprover)?
    public let timeoutSeconds: Int
    /// Whether a request refused for want of an approver tells its requester's terminal.
    public let tellsRequester: Bool
    /// The words of what a requester is told; nil: nothing is told.
    public let wording: (any AgentWording)?
    private let clock: @Sendable () -> Double
    /// Broadcast when a pending answer arrives.
    private let lock = Lock()
    /// When each running grant was approved (monotonic seconds).
    private var grants: [ApprovalRequest.GrantScope: Double] = [:]
    /// The grant scopes a request is being asked for now.
    private var asking: Set<ApprovalRequest.GrantScope> = []
    private var asked = 0
    private var waiting = 0

    /// `approver` nil: nobody can be asked, every confirm key is refused. `clock`: seconds, monotonic.
    public init(approver: (any AgentApprover)?, wording: (any AgentWording)? = nil, timeoutSeconds: Int = defaultTimeoutSeconds,
                tellsRequester: Bool = false, clock: @escaping @Sendable () -> Double = { Monotonic.seconds() }) {
        self.approver = approver
        self.wording = wording
        self.tellsRequester = tellsRequester
        self.timeoutSeconds = timeoutSeconds
        self.clock = clock
    }

    /// How many times the approver was asked.
    public var promptsAsked: Int { lock.locked { asked } }

    /// How many requests wait now for the answer to another of their grant scope.
    public var requestsWaiting: Int { lock.locked { waiting } }

    /// Forgets every grant (the agent was locked).
    public func clear() { lock.locked { grants.removeAll() } }

    /// The decision for a signature with `request.key`.
    public func decide(_ request: ApprovalRequest) -> Decision {
        let decision = decideUntold(request)
        if decision == .noApprover && tellsRequester, let wording { request.tellRequester(wording.noApproverNotice(request)) }
        return decision
    }

    /// Tells the requester's terminal (and the desktop) to touch the security key that is
    /// about to sign for `request`.
    public func tellToTouch(_ request: @autoclosure () -> ApprovalRequest) {
        guard let wording else { return }
        let request = request()
        request.tellRequester(wording.touchNotice(request))
    }

    private func decideUntold(_ request: ApprovalRequest) -> Decision {
        guard request.key.confirm else { return .noConfirm }
        guard let approver else { return .noApprover }
        let scope = request.grantScope
        let granting = request.mayGrant
        let granted: Bool = lock.locked {
            guard let scope else { asked += 1; return false }
            while true {
                // When it was approved, against the key's grant as saved now: a grant shortened
                // or taken away (`keys edit --grant`, `--no-grant`) shortens those running.
                if let approvedAt = grants[scope] {
                    if clock() < approvedAt + Double(request.key.grantSeconds) { return true }
                    grants[scope] = nil
                }
                guard granting, asking.contains(scope) else { break }
                waiting += 1
                lock.wait()
                waiting -= 1
            }
            if granting { asking.insert(scope) }
            asked += 1
            return false
        }
        if granted { return .grant }
        let answer = approver.ask(request, timeoutSeconds: timeoutSeconds)
        if let scope, granting {
            lock.locked {
                asking.remove(scope)
                if answer == .allowForGrant { grants[scope] = clock() }
                lock.broadcast()
            }
        }
        return Self.decision(answer)
    }

    private static func decision(_ answer: ApprovalAnswer) -> Decision {
        switch answer {
        case .allowOnce, .allowForGrant: .prompt
        case .deny: .denied
        case .timeout: .timeout
        case .unavailable: .noApprover
        }
    }
}
