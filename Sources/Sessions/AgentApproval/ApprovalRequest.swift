// One signature a confirm key (`hostbook keys edit NAME --confirm`) waits on: the key, where
// the signature goes, who asks and through which hosts, and the prompt that shows them. Every
// field from outside (names, comments, command lines) is escaped where the prompt is built,
// so a field cannot draw a line of its own.
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

public struct ApprovalRequest: Sendable, Equatable {
    public let key: StoredKey
    public let destination: ApprovalDestination
    /// The client (SO_PEERCRED) and up to 3 of its ancestors, the client first.
    public let chain: [RunningProcess]
    /// The saved hosts (or host-key fingerprints, for hosts hostbook does not know) the
    /// agent was forwarded through; empty for a local client.
    public let forwardedThrough: [String]

    public init(key: StoredKey, destination: ApprovalDestination, chain: [RunningProcess], forwardedThrough: [String]) {
        self.key = key
        self.destination = destination
        self.chain = chain
        self.forwardedThrough = forwardedThrough
    }

    public var isForwarded: Bool { !forwardedThrough.isEmpty }

    /// The requesting program: the client's executable ("" when unknown).
    public var program: String { chain.first?.executable ?? "" }

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
            lines.append("  destination: none (the client did not say which server the signature is for)")
        }
        if !forwardedThrough.isEmpty {
            lines.append("  forwarded through \(forwardedThrough.map(\.escapedForTerminal).joined(separator: ", "))")
        }
        if chain.isEmpty { lines.append("  requested by: an unknown process") }
        for (i, process) in chain.enumerated() {
            lines.append("  \(i == 0 ? "requested by:" : "        from:") \(Self.describe(process))")
        }
        if key.grantSeconds > 0 && !isForwarded {
            lines.append("Allowing covers this key, destination and program for \(Self.durationText(key.grantSeconds)).")
        } else if isForwarded {
            lines.append("A forwarded request asks every time.")
        }
        return lines
    }

    /// A duration as `keys edit --grant` takes it: `1h`, `10m`, `90s`.
    public static func durationText(_ seconds: Int) -> String {
        if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        if seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }

    /// The whole prompt, one field a line.
    public var prompt: String { promptLines.joined(separator: "\n") }

    /// `PID EXECUTABLE: COMMAND LINE`, escaped, the command line shortened to 200 characters.
    public static func describe(_ p: RunningProcess) -> String {
        var command = p.arguments.joined(separator: " ")
        if command.count > 200 { command = String(command.prefix(200)) + "…" }
        return "pid \(p.pid) \((p.executable ?? "?").escapedForTerminal): \(command.escapedForTerminal)"
    }

    /// A chain as the log keeps it: one process a line, as `describe` shows it.
    public static func logText(_ chain: [RunningProcess]) -> String? {
        chain.isEmpty ? nil : chain.map(describe).joined(separator: "\n")
    }
}
