// What a confirm key's signature waits on (`hostbook keys edit NAME --confirm`): a grant
// still running, else the approver's answer. Grants live only in this agent's memory: an
// approval "for the grant's duration" covers the same key × destination (host key) ×
// requesting program (the client's executable) for the key's `--grant`, and `clear()` (the
// agent locked) forgets them all. A forwarded request asks every time and makes no grant: its
// program is on another machine. One prompt per key × destination × program at a time: an
// identical request arriving while one is asked waits for that answer (no prompt storm), and
// every request waits at most `timeoutSeconds`.
import System

public final class AgentApprovals: @unchecked Sendable {
    /// How a signature was decided, as the agent's log records it.
    public enum Decision: String, Sendable {
        case prompt, grant, noConfirm = "no-confirm", denied, noApprover = "no-approver", timeout

        public var allows: Bool { self == .prompt || self == .grant || self == .noConfirm }
    }

    /// ssh-agent gives no limit; a request left unanswered ties up its client, so 60 s.
    public static let defaultTimeoutSeconds = 60

    private struct Scope: Hashable {
        let keyFingerprint: String
        let hostKeyFingerprint: String?
        let program: String
    }

    /// One question being asked; identical requests wait for its answer.
    private final class Pending {
        var answer: ApprovalAnswer?
    }

    public let approver: (any AgentApprover)?
    public let timeoutSeconds: Int
    private let clock: @Sendable () -> Double
    /// Broadcast when a pending answer arrives.
    private let lock = Lock()
    /// When each running grant was approved (monotonic seconds).
    private var grants: [Scope: Double] = [:]
    private var pending: [Scope: Pending] = [:]
    private var asked = 0
    private var waiting = 0

    /// `approver` nil: nobody can be asked, every confirm key is refused. `clock`: seconds, monotonic.
    public init(approver: (any AgentApprover)?, timeoutSeconds: Int = defaultTimeoutSeconds,
                clock: @escaping @Sendable () -> Double = { Monotonic.seconds() }) {
        self.approver = approver
        self.timeoutSeconds = timeoutSeconds
        self.clock = clock
    }

    /// How many times the approver was asked.
    public var promptsAsked: Int { lock.locked { asked } }

    /// How many requests wait now for an identical one's answer.
    public var requestsWaiting: Int { lock.locked { waiting } }

    /// Forgets every grant (the agent was locked).
    public func clear() { lock.locked { grants.removeAll() } }

    /// The decision for a signature with `request.key`.
    public func decide(_ request: ApprovalRequest) -> Decision {
        guard request.key.confirm else { return .noConfirm }
        guard let approver else { return .noApprover }
        let scope = Scope(keyFingerprint: request.key.fingerprint, hostKeyFingerprint: request.destination.hostKeyFingerprint,
                          program: request.program)
        let forwarded = request.isForwarded
        enum Role { case granted, asker(Pending), waiter(Pending) }
        let role: Role = lock.locked {
            let now = clock()
            // When it was approved, against the key's grant as saved now: a grant shortened
            // or taken away (`keys edit --grant`, `--no-grant`) shortens those running.
            if !forwarded, let approvedAt = grants[scope] {
                if now < approvedAt + Double(request.key.grantSeconds) { return .granted }
                grants[scope] = nil
            }
            if !forwarded, let question = pending[scope] { return .waiter(question) }
            let question = Pending()
            if !forwarded { pending[scope] = question }
            asked += 1
            return .asker(question)
        }
        switch role {
        case .granted:
            return .grant
        case .waiter(let question):
            let answer: ApprovalAnswer? = lock.locked {
                waiting += 1
                while question.answer == nil { lock.wait() }
                waiting -= 1
                return question.answer
            }
            return Self.decision(answer ?? .timeout)
        case .asker(let question):
            let answer = approver.ask(request, timeoutSeconds: timeoutSeconds)
            lock.locked {
                question.answer = answer
                if !forwarded {
                    pending[scope] = nil
                    if answer == .allowForGrant, request.key.grantSeconds > 0 {
                        grants[scope] = clock()
                    }
                }
                lock.broadcast()
            }
            return Self.decision(answer)
        }
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
