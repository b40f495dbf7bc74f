// A host as stored: where to connect, as whom, how to authenticate (docs/hosts.md).

/// How hostbook authenticates to a host. Derived, never set directly: `password` when a
/// password is stored in the vault, `key` when a key is attached, else `agent`.
/// (`none` is kept for importers that know a host needs no authentication.)
public enum HostAuth: String, Sendable, CaseIterable {
    case password, key, agent, none

    public static func derived(hasPassword: Bool, hasKey: Bool) -> HostAuth {
        hasPassword ? .password : (hasKey ? .key : .agent)
    }
}

public struct Host: Sendable, Equatable {
    public var id: Int64
    public var uuid: String
    public var name: String
    public var hostname: String
    public var port: Int
    public var user: String?
    public var auth: HostAuth
    /// The attached key's name, or nil.
    public var key: String?
    /// The jump host's name, or nil.
    public var jump: String?
    public var note: String?
    public var tags: [String]
    public var source: String
    public var sourceID: String?
    public var createdAt: String
    public var updatedAt: String
    /// What Tailscale said about the device at the last import; nil for other hosts.
    public var tailscale: TailscaleDetails? = nil
    /// Whether a forwarded agent (`ssh -A` to this host, used from there) may sign.
    public var allowAgentForwarding: Bool = false
    /// Its other names, sorted: each finds the host wherever its name does.
    public var aliases: [String] = []
    /// The fields the user set for themselves on a host a bundle brought (BundleOverrides).
    public var overrides: [BundleOverride] = []
}

/// What `add` stores.
public struct NewHost: Sendable {
    public var uuid: String
    public var name: String
    public var hostname: String
    public var port: Int
    public var user: String?
    public var tags: [String]
    public var key: String?
    public var jump: String?
    public var note: String?
    public var hasPassword: Bool
    public var aliases: [String]

    public init(uuid: String = UUIDString.random(), name: String, hostname: String, port: Int = 22, user: String? = nil,
                tags: [String] = [], key: String? = nil, jump: String? = nil, note: String? = nil, hasPassword: Bool = false,
                aliases: [String] = []) {
        self.aliases = aliases
        self.uuid = uuid
        self.name = name
        self.hostname = hostname
        self.port = port
        self.user = user
        self.tags = tags
        self.key = key
        self.jump = jump
        self.note = note
        self.hasPassword = hasPassword
    }
}

/// What `edit` changes; nil (or `.unchanged`) leaves a field as it is.
public struct HostChanges: Sendable {
    public enum Link: Sendable, Equatable { case unchanged, set(String), clear }
    public enum Password: Sendable, Equatable { case unchanged, set, clear }

    public var rename: String?
    public var hostname: String?
    public var port: Int?
    public var user: String?
    /// `edit --no-user`: the host has no user any more (ssh's default applies).
    public var clearUser = false
    public var addTags: [String] = []
    public var removeTags: [String] = []
    public var key: Link = .unchanged
    public var jump: Link = .unchanged
    public var note: String?
    public var password: Password = .unchanged
    /// `--allow-agent-forwarding` / `--no-agent-forwarding`.
    public var agentForwarding: Bool?
    /// `--alias A` / `--no-alias A`.
    public var addAliases: [String] = []
    public var removeAliases: [String] = []

    public init() {}

    public var isEmpty: Bool {
        addAliases.isEmpty && removeAliases.isEmpty && rename == nil && hostname == nil && port == nil && user == nil && !clearUser && addTags.isEmpty && removeTags.isEmpty
            && key == .unchanged && jump == .unchanged && note == nil && password == .unchanged && agentForwarding == nil
    }
}
