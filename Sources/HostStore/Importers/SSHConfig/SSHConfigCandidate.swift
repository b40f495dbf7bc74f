// One host as ssh_config resolves it, ready for the importer: the executable reads the
// configuration (SSHConfig) and the IdentityFiles' public halves, and hands these in.

public struct SSHConfigCandidate: Sendable {
    /// The Host alias: the host's name, and its `source_id`.
    public var alias: String
    /// HostName as `ssh -G` resolves it (the alias when unset).
    public var hostname: String
    public var port: Int
    /// Nil when the configuration sets none (ssh uses the local user).
    public var user: String?
    public var jump: SSHConfigJump
    /// The IdentityFiles in order, each with its public key's SHA-256 fingerprint when it
    /// could be read, or why not.
    public var identities: [SSHConfigIdentity]
    public var sourceFile: String
    public var sourceLine: Int
    /// What the configuration sets that hostbook does not keep, one line each.
    public var notImported: [ImportNote]
    /// Set when the caller already knows the host cannot be imported.
    public var skipReason: String?
    /// The fix of `skipReason` that is a hostbook command.
    public var skipRemedy: ImportNote.Remedy?
    /// The other names of the same `Host` line that resolve to exactly this host
    /// (`Host devbox dev`): saved as the host's aliases.
    public var aliases: [String] = []

    public init(alias: String, hostname: String, port: Int = 22, user: String? = nil, jump: SSHConfigJump = .none,
                identities: [SSHConfigIdentity] = [], sourceFile: String, sourceLine: Int, notImported: [ImportNote] = [],
                skipReason: String? = nil) {
        self.alias = alias
        self.hostname = hostname
        self.port = port
        self.user = user
        self.jump = jump
        self.identities = identities
        self.sourceFile = sourceFile
        self.sourceLine = sourceLine
        self.notImported = notImported
        self.skipReason = skipReason
    }
}

public enum SSHConfigJump: Sendable, Equatable {
    /// No ProxyJump (or `ProxyJump none`).
    case none
    /// One hop: `[user@]host[:port]` as written (`text`).
    case hop(host: String, user: String?, port: Int?, text: String)
    /// A ProxyJump hostbook cannot keep as a jump host (several hops, ...).
    case unrepresentable(text: String, reason: String)
}

public struct SSHConfigIdentity: Sendable, Equatable {
    /// The IdentityFile as written.
    public var path: String
    public var fingerprint: String?
    /// Why the public half could not be read (when `fingerprint` is nil).
    public var problem: String?
    /// The fix of `problem` that is a hostbook command.
    public var remedy: ImportNote.Remedy?

    public init(path: String, fingerprint: String?, problem: String? = nil) {
        self.path = path
        self.fingerprint = fingerprint
        self.problem = problem
    }
}
