// What an import did (or, with --dry-run, would do): one entry per device considered,
// the host keys it trusted, rotated or could not trust.
import ImportFormats

public enum TailscaleHostAction: String, Sendable {
    case added, updated, unchanged, skipped
}

public struct TailscaleHostResult: Sendable, Equatable {
    public let nodeID: String
    /// The hostbook host name: the existing one for a known node (the user may have
    /// renamed it), the new one for an added host, the alias for a skipped one.
    public let name: String
    public let hostname: String
    public let action: TailscaleHostAction
    /// Why it was skipped, or a remark such as a rename after a name clash.
    public let reason: String?
    public let tags: [String]
    public let os: String
    public let online: Bool?
    public let lastSeen: String?
    public let owner: String?
    /// Valid keys in `sshHostKeys`.
    public let hostKeys: Int
}

/// A host key that differs from the one the last import trusted for the same key type.
public struct TailscaleKeyRotation: Sendable, Equatable {
    public let host: String
    public let keyType: String
    public let oldFingerprint: String
    public let newFingerprint: String

    public init(host: String, keyType: String, oldFingerprint: String, newFingerprint: String) {
        self.host = host
        self.keyType = keyType
        self.oldFingerprint = oldFingerprint
        self.newFingerprint = newFingerprint
    }
}

/// A host key that was not trusted, and why.
public struct TailscaleKeyProblem: Sendable, Equatable {
    public let host: String
    /// The known_hosts name the key was to be trusted for ("" when the key itself is bad).
    public let pattern: String
    public let keyType: String
    public let fingerprint: String
    /// Why, without the remedy.
    public let reason: String
    /// The fix that is a hostbook command, worded by the executable.
    public var remedy: ImportNote.Remedy? = nil
}

public struct TailscaleImportReport: Sendable {
    public var format: TailscaleFormat
    public var dryRun: Bool
    public var hosts: [TailscaleHostResult] = []
    public var rotations: [TailscaleKeyRotation] = []
    public var keyProblems: [TailscaleKeyProblem] = []
    /// known_hosts entries written (or that would be written): new and rotated.
    public var entriesTrusted = 0
    /// Things the user should know that are not about one host.
    public var notes: [ImportNote] = []

    public init(format: TailscaleFormat, dryRun: Bool) {
        self.format = format
        self.dryRun = dryRun
    }

    public func count(_ action: TailscaleHostAction) -> Int { hosts.reduce(0) { $0 + ($1.action == action ? 1 : 0) } }
}
