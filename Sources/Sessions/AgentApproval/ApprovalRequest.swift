// One signature a confirm key (`hostbook keys edit NAME --confirm`) waits on: the key, where
// the signature goes, what it signs (user authentication, or an SSHSIG signature and its
// namespace, and a digest of the very data), which program asks (verified: ProcessIdentity)
// and through which hosts, and the prompt that shows them. An answer is for this request
// alone; only a grant reaches further, and only as far as `grantScope`. Every field from
// outside (names, comments, command lines) is escaped where the prompt is built, so a field
// cannot draw a line of its own (PrintableText).
public import HostStore
public import System
import KeyFormats

/// Where a signature goes, as the agent knows it from session-bind.
public enum ApprovalDestination: Sendable, Equatable {
    /// Bound to a host key that saved hosts trust: each as `name` and `user@hostname:port`.
    case savedHosts([SavedDestination], hostKeyFingerprint: String)
    /// Bound to a host key no saved host trusts.
    case unknownServer(hostKeyFingerprint: String)
    /// Not bound (ssh-add, ssh-keygen -Y sign, an ssh before 8.9).
    case none

    /// The host key's fingerprint; nil when not bound.
    public var hostKeyFingerprint: String? {
        switch self {
        case .savedHosts(_, let fingerprint), .unknownServer(let fingerprint): fingerprint
        case .none: nil
        }
    }
}

public struct SavedDestination: Sendable, Equatable {
    public let name: String
    public let user: String?
    public let hostname: String
    public let port: Int

    public init(name: String, user: String?, hostname: String, port: Int) {
        self.name = name
        self.user = user
        self.hostname = hostname
        self.port = port
    }

    /// `user@hostname:port` (no `user@` when the host has no login name).
    public var address: String { (user.map { "\($0)@" } ?? "") + "\(hostname):\(port)" }
}

/// What a signature is over, as the agent told the data apart (SignedData).
public enum ApprovalSubject: Sendable, Equatable, Hashable {
    /// Logging in to a server as `user`.
    case userAuthentication(user: String)
    /// An SSHSIG signature (`ssh-keygen -Y sign`, git) in `namespace`.
    case sshsig(namespace: String)
    /// Data the agent cannot tell apart.
    case unidentified

    /// The SSHSIG namespace (nil for anything else).
    public var namespace: String? { if case .sshsig(let namespace) = self { namespace } else { nil } }
}

public struct ApprovalRequest: Sendable, Equatable {
    public let key: StoredKey
    /// The client as its connection's pidfd pins it: whose controlling terminal is told
    /// what happens to the request (`tellRequester`). nil: nobody is told.
    public let requester: ProcessIdentity?
    public let destination: ApprovalDestination
    /// What is signed.
    public let subject: ApprovalSubject
    /// `SHA256:` and the base64 of SHA-256 of the data to be signed.
    public let dataDigest: String
    /// The client's program, verified by its pidfd (nil: it could not be identified: it
    /// exited, exec'd another program, is not dumpable, or is an interpreter whose script
    /// cannot be told).
    public let program: ProcessIdentity.Program?
    /// The client (SO_PEERCRED) and up to 3 of its ancestors, the client first: what the
    /// prompt shows of them (read when the request came; only `program` is verified).
    public let chain: [RunningProcess]
    /// The saved hosts (or host-key fingerprints, for hosts hostbook does not know) the
    /// agent was forwarded through; empty for a local client.
    public let forwardedThrough: [String]

    public init(key: StoredKey, destination: ApprovalDestination, subject: ApprovalSubject, dataDigest: String,
                program: ProcessIdentity.Program?, chain: [RunningProcess], forwardedThrough: [String],
                requester: ProcessIdentity? = nil) {
        self.key = key
        self.requester = requester
        self.destination = destination
        self.subject = subject
        self.dataDigest = dataDigest
        self.program = program
        self.chain = chain
        self.forwardedThrough = forwardedThrough
    }

    public var isForwarded: Bool { !forwardedThrough.isEmpty }

    public static func == (a: ApprovalRequest, b: ApprovalRequest) -> Bool {
        a.key == b.key && a.destination == b.destination && a.subject == b.subject && a.dataDigest == b.dataDigest
            && a.program == b.program && a.chain == b.chain && a.forwardedThrough == b.forwardedThrough
            && a.requester === b.requester
    }

    // MARK: What the requester's terminal is told

    /// Tells the requester's own terminal (when it has one of this user) one line, and the
    /// desktop (DesktopNotification, where a notification service answers); never a
    /// question: answers come only from an approver the user started.
    public func tellRequester(_ line: String) {
        guard let requester else { return }
        requester.tellTerminal(line)
        DesktopNotification.post(line)
    }

    /// "hostbook: waiting for approval of 'KEY' → DESTINATION in APPROVER" (`approver` is
    /// already escaped).
    public func waitingNotice(in approver: String) -> String {
        "hostbook: waiting for approval of '\(key.name.escapedForTerminal)' → \(noticeDestination) in \(approver)"
    }

    /// "hostbook: touch your security key for 'KEY' → DESTINATION": said before an sk key's
    /// authenticator is asked to sign (it may wait for a touch).
    public var touchNotice: String {
        "hostbook: touch your security key for '\(key.name.escapedForTerminal)' → \(noticeDestination)"
    }

    /// Tells the requester's terminal (and the desktop) to touch the security key.
    public func tellRequesterToTouch() { tellRequester(touchNotice) }

    /// What the requester is told when no approver could be asked.
    public static let noApproverNotice = "hostbook: refused: no approver; run 'hostbook agent approve' or set SSH_ASKPASS"

    /// Where the signature goes, in a few words.
    var noticeDestination: String {
        switch destination {
        case .savedHosts(let hosts, _): return hosts.map(\.name.escapedForTerminal).joined(separator: ", ")
        case .unknownServer: return "a server hostbook does not know"
        case .none:
            if let namespace = subject.namespace { return "namespace \(namespace.escapedForTerminal)" }
            return "no named server"
        }
    }

    /// What a grant for this request covers: key × destination host key × program (and
    /// script) × SSHSIG namespace. nil when no grant can be made: a forwarded request (its
    /// program is on another machine) or an unidentified program.
    public struct GrantScope: Sendable, Hashable {
        public let keyFingerprint: String
        public let hostKeyFingerprint: String?
        public let program: ProcessIdentity.Program
        public let namespace: String?
    }

    public var grantScope: GrantScope? {
        guard !isForwarded, let program else { return nil }
        return GrantScope(keyFingerprint: key.fingerprint, hostKeyFingerprint: destination.hostKeyFingerprint,
                          program: program, namespace: subject.namespace)
    }

    /// Whether an answer for the key's grant can make one.
    public var mayGrant: Bool { key.grantSeconds > 0 && grantScope != nil }

    /// How many ancestors of the client a request shows.
    public static let ancestorsShown = 3

    /// The lines of the prompt, each escaped.
    public var promptLines: [String] {
        var lines = ["Allow a signature with key \(key.name.escapedForTerminal)?",
                     "  key:         \(key.algorithm.escapedForTerminal) \(key.fingerprint.escapedForTerminal)"]
        switch destination {
        case .savedHosts(let hosts, let fingerprint):
            for host in hosts {
                lines.append("  destination: \(host.name.escapedForTerminal) (\(host.address.escapedForTerminal))")
            }
            lines.append("  host key:    \(fingerprint.escapedForTerminal)")
        case .unknownServer(let fingerprint):
            lines.append("  destination: a server hostbook does not know (host key \(fingerprint.escapedForTerminal))")
        case .none:
            // An SSHSIG signature (git, ssh-keygen -Y sign) goes to no server: its namespace
            // says what it is for.
            if subject.namespace == nil {
                lines.append("  destination: none (the client did not say which server the signature is for)")
            }
        }
        switch subject {
        case .userAuthentication(let user): lines.append("  signs:       a login as \(user.escapedForTerminal)")
        case .sshsig(let namespace):
            lines.append("  namespace:   \(namespace.escapedForTerminal)")
            lines.append("  signs:       an SSHSIG signature (ssh-keygen -Y sign, git commit -S)")
        case .unidentified: lines.append("  signs:       data that is neither a login nor an SSHSIG signature")
        }
        lines.append("  data:        \(dataDigest.escapedForTerminal)")
        if !forwardedThrough.isEmpty {
            lines.append("  forwarded through \(forwardedThrough.map(\.escapedForTerminal).joined(separator: ", "))")
        }
        lines.append("  program:     \(programText)")
        if chain.isEmpty { lines.append("  requested by: an unknown process") }
        for (i, process) in chain.enumerated() {
            lines.append("  \(i == 0 ? "requested by:" : "        from:") \(Self.describe(process, verified: i == 0 ? .some(program) : nil))")
        }
        if isForwarded {
            lines.append("A forwarded request asks every time.")
        } else if program == nil {
            lines.append("An unknown program asks every time.")
        }
        return lines
    }

    /// The sentence that goes with the grant choice (`choice`: how the approver names it,
    /// `[a]` or `Yes`): what a grant made by this answer covers, and for how long. nil when
    /// no grant can be made.
    public func grantSentence(choice: String) -> String? {
        guard mayGrant, let grantCoverage else { return nil }
        return "\(choice) also allows, for \(Self.durationText(key.grantSeconds)) and without asking, every signature \(grantCoverage)."
    }

    /// What a grant for this request covers, in words (the grant scope: key × destination ×
    /// program, with its script, × namespace), escaped; nil when no grant can be made.
    public var grantCoverage: String? {
        guard grantScope != nil else { return nil }
        var words = ["with key \(key.name.escapedForTerminal)"]
        switch destination {
        case .savedHosts(let hosts, let fingerprint):
            words.append("to \(hosts.map(\.name.escapedForTerminal).joined(separator: ", ")) (host key \(fingerprint.escapedForTerminal))")
        case .unknownServer(let fingerprint): words.append("to the server of host key \(fingerprint.escapedForTerminal)")
        case .none: if subject.namespace == nil { words.append("bound to no server") }
        }
        if let namespace = subject.namespace { words.append("in namespace \(namespace.escapedForTerminal)") }
        words.append("by \(programText)")
        return words.joined(separator: " ")
    }

    /// A duration as `keys edit --grant` takes it: `1h`, `10m`, `90s`.
    public static func durationText(_ seconds: Int) -> String {
        if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        if seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }

    /// The whole prompt, one field a line.
    public var prompt: String { promptLines.joined(separator: "\n") }

    /// The verified program: its executable, and the script of an interpreter.
    var programText: String {
        guard let program else { return "unknown program (not identified: no grant is made for it)" }
        return program.executable.escapedForTerminal + (program.script.map { " running \($0.escapedForTerminal)" } ?? "")
    }

    /// `PID EXECUTABLE: COMMAND LINE`, escaped, the command line shortened to 200 characters.
    /// `verified`: for the client, its verified program (`.some(nil)`: unknown program),
    /// shown instead of what /proc says now.
    public static func describe(_ p: RunningProcess, verified: ProcessIdentity.Program?? = nil) -> String {
        var command = p.arguments.joined(separator: " ")
        if command.count > 200 { command = String(command.prefix(200)) + "…" }
        let executable: String = switch verified {
        case .some(.some(let program)): program.executable
        case .some(.none): "unknown program"
        case .none: p.executable ?? "?"
        }
        return "pid \(p.pid) \(executable.escapedForTerminal): \(command.escapedForTerminal)"
    }

    /// A chain as the log keeps it: one process a line, as `describe` shows it.
    public static func logText(_ chain: [RunningProcess]) -> String? {
        chain.isEmpty ? nil : chain.map { describe($0) }.joined(separator: "\n")
    }
}
