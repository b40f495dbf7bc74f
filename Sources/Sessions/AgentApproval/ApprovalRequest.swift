// One signature a confirm key (`hostbook keys edit NAME --confirm`) waits on: the key, where
// the signature goes, what it signs (user authentication, or an SSHSIG signature and its
// namespace, and a digest of the very data), which program asks (verified: ProcessIdentity)
// and through which hosts. An answer is for this request alone; only a grant reaches
// further, and only as far as `grantScope`. Every field is raw data: the prompt that shows
// them, and the lines the requester is told, are the executable's words (AgentWording),
// which escape every field from outside (PrintableText).
public import HostStore
public import System

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

    /// Tells the requester's own terminal (when it has one of this user) one line (an
    /// AgentWording's notice), and the desktop (DesktopNotification, where a notification
    /// service answers); never a question: answers come only from an approver the user started.
    public func tellRequester(_ line: String) {
        guard let requester else { return }
        requester.tellTerminal(line)
        DesktopNotification.post(line)
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

    /// A duration as `keys edit --grant` takes it: `1h`, `10m`, `90s`.
    public static func durationText(_ seconds: Int) -> String {
        if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        if seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }
}
