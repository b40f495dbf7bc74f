// The agent's side of `hostbook agent approve`: a private socket beside the agent's own
// (its path and `.approve`: 0600 in the agent's 0700 folder; UnixSocketServer serves only
// this user's processes, by SO_PEERCRED) to which `agent approve` connects. One approver
// serves at a time: the first to connect is told `ready` and gets every question; one that
// connects while it is there is told `busy` (with the serving one's pid) and closed, and the
// serving one is told `another` (with the newcomer's pid), so the user sees that someone
// tried to take the questions over. Each question has its own id and its answer (y, n, or
// a: yes for the key's grant) comes back on the same connection with that id: an answer is
// for its question alone. When none is connected the answer is `unavailable`, so the next
// approver (the askpass) is tried. ApprovalWire holds the messages. Once a question is
// put, the requester's own terminal is told that it waits, and where. The prompt and that
// line are the executable's words (AgentWording).
import Agent
import System

public final class TerminalApprover: AgentApprover, @unchecked Sendable {
    /// The approval socket of the agent listening at `agentPath`.
    public static func socketPath(forAgentAt agentPath: String) -> String { agentPath + ".approve" }

    private final class Client: @unchecked Sendable {
        let connection: UnixConnection
        /// Answers by question id; nil while unanswered.
        var answers: [UInt64: ApprovalAnswer?] = [:]
        var gone = false
        /// One frame written at a time (questions from several requests, and notices).
        private let writing = Lock()
        init(_ connection: UnixConnection) { self.connection = connection }

        func write(_ frame: [UInt8]) -> Bool { writing.locked { connection.writeFrame(frame) } }
    }

    private let lock = Lock()
    /// The one `agent approve` answering (nil: none).
    private var client: Client?
    private var nextID: UInt64 = 1
    private var server: UnixSocketServer?
    private let wording: any AgentWording

    /// Listens at `socketPath` (which must not exist); `wording` words each question.
    public init(socketPath: String, wording: any AgentWording) throws {
        self.wording = wording
        let server = try UnixSocketServer(path: socketPath, limits: .forThisProcess(maxClients: 16, maxClientsPerPeer: 4)) { [weak self] connection in
            self?.serve(connection)
        }
        self.server = server
        try server.start()
    }

    deinit { server?.stop() }

    /// Stops listening, disconnects every `agent approve` and removes the socket.
    public func stop() { server?.stop() }

    /// How many `agent approve` answer now (0 or 1).
    public var connected: Int { lock.locked { client == nil ? 0 : 1 } }

    public func ask(_ request: ApprovalRequest, timeoutSeconds: Int) -> ApprovalAnswer {
        let asked: (Client, UInt64)? = lock.locked {
            guard let client else { return nil }
            let id = nextID
            nextID += 1
            client.answers[id] = .some(nil)
            return (client, id)
        }
        guard let (client, id) = asked else { return .unavailable }
        let grant = request.mayGrant ? ApprovalRequest.durationText(request.key.grantSeconds) : nil
        // The grant's sentence goes last, just above the question that offers it.
        let prompt = wording.promptWithGrant(request, choice: "[a]")
        guard client.write(ApprovalWire.question(id: id, grant: grant, prompt: prompt)) else {
            return lock.locked { client.answers[id] = nil; return .unavailable }
        }
        request.tellRequester(wording.waitingNotice(request, approver: .agentApprove))
        let deadline = Monotonic.seconds() + Double(timeoutSeconds)
        let answer: ApprovalAnswer = lock.locked {
            while true {
                if let answered = client.answers[id] ?? nil { client.answers[id] = nil; return answered }
                if client.gone { client.answers[id] = nil; return .unavailable }
                if !lock.wait(until: deadline), Monotonic.seconds() >= deadline {
                    client.answers[id] = nil
                    return .timeout
                }
            }
        }
        if answer == .timeout { _ = client.write(ApprovalWire.cancel(id: id)) }
        return answer
    }

    /// One `agent approve`: refused when another answers, else its answers until it goes away.
    private func serve(_ connection: UnixConnection) {
        let client = Client(connection)
        let serving: Client? = lock.locked {
            if let serving = self.client { return serving }
            self.client = client
            return nil
        }
        if let serving {
            _ = client.write(ApprovalWire.busy(servingPID: serving.connection.peer.pid))
            _ = serving.write(ApprovalWire.another(pid: connection.peer.pid))
            return
        }
        guard client.write(ApprovalWire.ready) else {
            lock.locked { self.client = nil }
            return
        }
        while let frame = connection.readFrame(maxLength: ApprovalWire.maxFrame) {
            guard let (id, answer) = ApprovalWire.answer(frame) else { break }
            lock.locked {
                // An answer to a question not asked (or already timed out) is dropped.
                guard client.answers[id] != nil else { return }
                client.answers[id] = .some(answer)
                lock.broadcast()
            }
        }
        lock.locked {
            client.gone = true
            if self.client === client { self.client = nil }
            lock.broadcast()
        }
    }
}

/// The messages between the agent and `hostbook agent approve`, one length-prefixed frame
/// each (UTF-8 text, fields on lines):
///   agent → approve:  `ready\n0` (this one answers), or `busy\nPID` (the approver of pid
///                     PID answers; this one is closed)
///                     `ask\nID\nGRANT\nPROMPT` (GRANT: the key's grant, `10m`, or empty)
///                     `cancel\nID` (unanswered within the time: refused)
///                     `another\nPID` (an approver of pid PID tried to connect, and was refused)
///   approve → agent:  `answer\nID\nA` (A: y, n, or a = yes for the grant)
public enum ApprovalWire {
    public static let maxFrame = 64 * 1024

    public enum Message: Sendable, Equatable {
        case ready
        case busy(servingPID: Int32)
        case question(id: UInt64, grant: String?, prompt: String)
        case cancel(id: UInt64)
        case another(pid: Int32)
    }

    public static let ready: [UInt8] = Array("ready\n0".utf8)
    public static func busy(servingPID: Int32) -> [UInt8] { Array("busy\n\(servingPID)".utf8) }
    public static func another(pid: Int32) -> [UInt8] { Array("another\n\(pid)".utf8) }

    public static func question(id: UInt64, grant: String?, prompt: String) -> [UInt8] {
        Array("ask\n\(id)\n\(grant ?? "")\n\(prompt)".utf8.prefix(maxFrame))
    }

    public static func cancel(id: UInt64) -> [UInt8] { Array("cancel\n\(id)".utf8) }

    public static func answer(id: UInt64, _ answer: ApprovalAnswer) -> [UInt8] {
        let letter = switch answer {
        case .allowOnce: "y"
        case .allowForGrant: "a"
        default: "n"
        }
        return Array("answer\n\(id)\n\(letter)".utf8)
    }

    /// What the agent sent; nil for anything else.
    public static func message(_ frame: [UInt8]) -> Message? {
        let parts = String(decoding: frame, as: UTF8.self).split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, let id = UInt64(parts[1]) else { return nil }
        switch parts[0] {
        case "ask" where parts.count == 4: return .question(id: id, grant: parts[2].isEmpty ? nil : parts[2], prompt: parts[3])
        case "cancel" where parts.count == 2: return .cancel(id: id)
        case "ready" where parts.count == 2: return .ready
        case "busy" where parts.count == 2: return Int32(exactly: id).map { .busy(servingPID: $0) }
        case "another" where parts.count == 2: return Int32(exactly: id).map { .another(pid: $0) }
        default: return nil
        }
    }

    /// An answer `agent approve` sent; nil for anything else.
    static func answer(_ frame: [UInt8]) -> (UInt64, ApprovalAnswer)? {
        let parts = String(decoding: frame, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "answer", let id = UInt64(parts[1]) else { return nil }
        switch parts[2] {
        case "y": return (id, .allowOnce)
        case "a": return (id, .allowForGrant)
        case "n": return (id, .deny)
        default: return nil
        }
    }
}
