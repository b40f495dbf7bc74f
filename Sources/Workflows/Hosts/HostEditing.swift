// `add` and `edit`'s work: the host value built from the options (a plain input the program
// fills), checked by the store's rules before any password is asked, then written across the
// database and the vault (CredentialStore); a bundle host's fields reset to the bundle's.
import Credentials
import HostStore
import SecureMemory

/// `add`'s options as given.
public struct HostAddInput: Sendable {
    public var name: String
    public var hostname: String
    public var port: Int?
    public var user: String?
    public var tags: [String] = []
    public var aliases: [String] = []
    public var key: String?
    public var jump: String?
    public var note: String?

    public init(name: String, hostname: String) {
        self.name = name
        self.hostname = hostname
    }
}

/// `edit`'s options as given.
public struct HostEditInput: Sendable {
    public var rename: String?
    public var hostname: String?
    public var port: Int?
    public var user: String?
    public var clearUser = false
    public var addTags: [String] = []
    public var removeTags: [String] = []
    public var addAliases: [String] = []
    public var removeAliases: [String] = []
    public var key: String?
    public var clearKey = false
    public var jump: String?
    public var clearJump = false
    public var note: String?
    public var setPassword = false
    public var clearPassword = false
    /// true: allow agent forwarding, false: refuse it, nil: unchanged.
    public var agentForwarding: Bool?
    /// Fields to give back to the bundle, as typed.
    public var resets: [String] = []
    /// `omit` or `publish`, as typed.
    public var userPublishing: String?

    public init() {}
}

public enum HostEditing {
    /// The new host, checked (HostDatabase.validate) before anything is asked or written.
    public static func newHost(_ input: HostAddInput) throws -> NewHost {
        var new = NewHost(name: input.name, hostname: input.hostname)
        if let p = input.port { new.port = p }
        new.user = input.user
        new.tags = input.tags
        new.aliases = input.aliases
        new.key = input.key
        new.jump = input.jump
        new.note = input.note
        try HostDatabase.validate(new)
        return new
    }

    /// Adds `new` with its password (written to the vault first: CredentialStore).
    public static func add(_ new: NewHost, password: SecretBytes?, in workspace: Workspace) throws -> Host {
        try workspace.credentials().addHost(new, password: password)
    }

    /// An edit of host `name`, checked: the changes (a reset read from the bundle's values)
    /// and the user publishing. The host must exist; nothing is created.
    public struct Edit: Sendable {
        public let name: String
        public let changes: HostChanges
        public let userPublishing: BundleUserPublishing?
        /// A new password is to be read before `apply`.
        public var needsPassword: Bool { changes.password == .set }
    }

    public static func edit(_ name: String, _ input: HostEditInput, in workspace: Workspace) throws -> Edit {
        var c = HostChanges()
        c.rename = input.rename
        c.hostname = input.hostname
        c.port = input.port
        c.user = input.user
        c.clearUser = input.clearUser
        c.addTags = input.addTags
        c.removeTags = input.removeTags
        c.addAliases = input.addAliases
        c.removeAliases = input.removeAliases
        if let both = c.addTags.first(where: { t in c.removeTags.contains { $0.lowercased() == t.lowercased() } }) {
            throw HostsRefusal.tagAddedAndRemoved(both)
        }
        if let k = input.key { c.key = .set(k) } else if input.clearKey { c.key = .clear }
        if let j = input.jump { c.jump = .set(j) } else if input.clearJump { c.jump = .clear }
        c.note = input.note
        if input.setPassword { c.password = .set } else if input.clearPassword { c.password = .clear }
        c.agentForwarding = input.agentForwarding
        let resets = try input.resets.map { word in
            guard let f = BundleOverrideField(rawValue: word.lowercased()) else { throw HostsRefusal.notAResetField(word) }
            return f
        }
        let userPublishing = try input.userPublishing.map { word in
            guard let p = BundleUserPublishing(rawValue: word.lowercased()) else { throw HostsRefusal.notAUserPublishing(word) }
            return p
        }
        if !resets.isEmpty {
            guard c.isEmpty, userPublishing == nil else { throw HostsRefusal.resetWithOtherChanges }
            guard let database = try workspace.existingDatabase() else { throw HostDatabase.noHost(name) }
            c = try database.resetChanges(host: name, fields: resets)
            if c.isEmpty {
                // The override holds the bundle's value already (a tag list in another order).
                c.note = try database.host(named: name)?.note ?? ""
            }
        }
        if c.isEmpty && userPublishing == nil { throw HostsRefusal.nothingToChange(host: name) }
        try HostDatabase.validate(c)
        // A host that does not exist is reported before any prompt, and creates no database.
        let database = try workspace.existingDatabase()
        guard try database?.host(named: name) != nil else {
            throw database?.noHost(name) ?? HostDatabase.noHost(name)
        }
        return Edit(name: name, changes: c, userPublishing: userPublishing)
    }

    /// Writes `edit` (its password, when it sets one, given here) and returns the host as it
    /// is now.
    public static func apply(_ edit: Edit, password: SecretBytes?, in workspace: Workspace) throws -> Host {
        let db = try workspace.database()
        let host: Host
        if edit.changes.isEmpty {
            guard let found = try db.host(named: edit.name) else { throw db.noHost(edit.name) }
            host = found
        } else {
            host = try CredentialStore(database: db).editHost(edit.name, edit.changes, password: password).new
        }
        if let userPublishing = edit.userPublishing {
            try BundleStore(database: db).setUserPublishing(hostID: host.id, userPublishing)
        }
        return host
    }

    /// The saved host `name` (by name or alias) for a command that reads it; the store's
    /// not-found error (with the nearest name) when there is none. Nothing is created.
    public static func existing(_ name: String, in workspace: Workspace) throws -> Host {
        let database = try workspace.existingDatabase()
        guard let host = try database?.host(named: name) else {
            throw database?.noHost(name) ?? HostDatabase.noHost(name)
        }
        return host
    }
}
