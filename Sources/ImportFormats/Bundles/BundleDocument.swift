// A team bundle as a value: the hosts, snippets and host keys one team shares through git
// (docs/formats.md, "Team bundles"). Read from and written to text by `BundleText`; what
// the database makes of it is HostStore's (Sources/HostStore/Bundles).

/// One bundle: its name, its serial number and what it carries. Never a secret: a host
/// names the key it expects, never key material.
public struct BundleDocument: Sendable, Equatable {
    /// The bundle's name (the `NAME` of the hosts' source `bundle:NAME`).
    public var name: String
    /// Raised by every export; an importer refuses a lower one than it applied.
    public var serial: UInt64
    public var hosts: [BundleHost]
    public var snippets: [BundleSnippet]
    /// known_hosts lines (docs/formats.md, "known_hosts"), `@cert-authority` and `@revoked`
    /// markers included, host fields plain or hashed.
    public var hostKeys: [String]
    /// User certificates the bundle's CA issued, each as `TYPE BASE64` (`bundle export
    /// --ca`): public data, attached by a subscriber to its own key they certify.
    public var certificates: [String]
    /// The CA's key revocation list (PROTOCOL.krl) in base64, or nil.
    public var revocationList: String?

    public init(name: String, serial: UInt64, hosts: [BundleHost] = [], snippets: [BundleSnippet] = [], hostKeys: [String] = [],
                certificates: [String] = [], revocationList: String? = nil) {
        self.name = name
        self.serial = serial
        self.hosts = hosts
        self.snippets = snippets
        self.hostKeys = hostKeys
        self.certificates = certificates
        self.revocationList = revocationList
    }
}

/// One host of a bundle.
public struct BundleHost: Sendable, Equatable {
    public var name: String
    public var hostname: String
    public var port: Int
    public var user: String?
    public var tags: [String]
    public var aliases: [String]
    /// The name of the host to jump through (another host of the bundle, or one the
    /// importer has).
    public var jump: String?
    public var note: String?
    /// The NAME of the key this host expects, never key material.
    public var key: String?

    public init(name: String, hostname: String, port: Int = 22, user: String? = nil, tags: [String] = [], aliases: [String] = [],
                jump: String? = nil, note: String? = nil, key: String? = nil) {
        self.name = name
        self.hostname = hostname
        self.port = port
        self.user = user
        self.tags = tags
        self.aliases = aliases
        self.jump = jump
        self.note = note
        self.key = key
    }
}

/// One snippet of a bundle (a named command).
public struct BundleSnippet: Sendable, Equatable {
    public var name: String
    public var command: String
    public var description: String?

    public init(name: String, command: String, description: String? = nil) {
        self.name = name
        self.command = command
        self.description = description
    }
}
