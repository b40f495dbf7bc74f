// What an ssh_config import did (or, with --dry-run, would do): one entry per concrete
// Host alias, with everything about it that hostbook did not keep.

public enum SSHConfigHostAction: String, Sendable {
    case added, updated, unchanged, skipped
}

public struct SSHConfigHostResult: Sendable, Equatable {
    public let alias: String
    /// The hostbook host name (an earlier import's host keeps the name the user gave it).
    public let name: String
    public let hostname: String
    public let port: Int
    public let user: String?
    /// The saved jump host's name, when the ProxyJump names one.
    public let jump: String?
    /// The linked hostbook key's name.
    public let key: String?
    public let action: SSHConfigHostAction
    public let reason: String?
    /// The fix of `reason` that is a hostbook command.
    public var reasonRemedy: ImportNote.Remedy?
    public let sourceFile: String
    public let sourceLine: Int
    /// Settings of this host that hostbook does not represent.
    public let notImported: [ImportNote]
    /// The other names of its Host line saved as its aliases.
    public var aliases: [String] = []
}

public struct SSHConfigImportReport: Sendable {
    public var dryRun: Bool
    public var hosts: [SSHConfigHostResult] = []
    /// About the file as a whole (Match blocks, permissions, ...).
    public var notes: [ImportNote] = []

    public init(dryRun: Bool) { self.dryRun = dryRun }

    public func count(_ action: SSHConfigHostAction) -> Int { hosts.reduce(0) { $0 + ($1.action == action ? 1 : 0) } }
}
