// `add` and `edit`'s work: the host value built from the options (a plain input the program
// fills), checked by the store's rules before any password is asked, then written across the
// database and the vault (CredentialStore); a bundle host's fields reset to the bundle's.
import Credentials
import HostStore
import SecureMemory

public enum HostEditing {
    /// `new` checked (HostDatabase.validate) before anything is asked or written.
    public static func checked(_ new: NewHost) throws -> NewHost {
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

    /// `changes` as the options give them; `resets`: the fields to give back to the bundle,
    /// and `userPublishing` (`omit` or `publish`), as typed.
    public static func edit(_ name: String, _ changes: HostChanges, resets typed: [String] = [], userPublishing typedPublishing: String? = nil,
                            in workspace: Workspace) throws -> Edit {
        var c = changes
        if let both = c.addTags.first(where: { t in c.removeTags.contains { $0.lowercased() == t.lowercased() } }) {
            throw HostsRefusal.tagAddedAndRemoved(both)
        }
        let resets = try typed.map { word in
            guard let f = BundleOverrideField(rawValue: word.lowercased()) else { throw HostsRefusal.notAResetField(word) }
            return f
        }
        let userPublishing = try typedPublishing.map { word in
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
        _ = try existing(name, in: workspace)
        return Edit(name: name, changes: c, userPublishing: userPublishing)
    }

    /// Writes `edit` (its password, when it sets one, given here) and returns the host as it
    /// is now.
    public static func apply(_ edit: Edit, password: SecretBytes?, in workspace: Workspace) throws -> Host {
        let db = try workspace.database()
        let host: Host
        if edit.changes.isEmpty {
            host = try db.requireHost(edit.name)
        } else {
            host = try CredentialStore(database: db).editHost(edit.name, edit.changes, password: password).new
        }
        if let userPublishing = edit.userPublishing {
            try BundleStore(database: db).setUserPublishing(hostID: host.id, userPublishing)
        }
        return host
    }

    /// Whether bundle exports publish `host` without its user (`edit --bundle-user omit`);
    /// false without a database.
    public static func userOmitted(_ host: Host, in workspace: Workspace) throws -> Bool {
        try workspace.existingDatabase().map { try BundleStore(database: $0).userPublishing(hostID: host.id) == .omit } ?? false
    }

    /// The saved host `name` (by name or alias) for a command that reads it; the store's
    /// not-found error (with the nearest name) when there is none. Nothing is created.
    public static func existing(_ name: String, in workspace: Workspace) throws -> Host {
        guard let database = try workspace.existingDatabase() else { throw HostDatabase.noHost(name) }
        return try database.requireHost(name)
    }
}
