// The keys set up for signing git commits (`hostbook git setup KEY`) and the email each
// signs as: the `key_git_identities` table (KeysSchema.v5GitSigning), one row per key, gone
// with its key (ON DELETE CASCADE). The allowed signers file is made from these rows
// (Sessions' AllowedSigners).

/// A key set up for git and the email git uses with it.
public struct GitSigningKey: Sendable, Equatable {
    public let key: StoredKey
    public let email: String
}

public struct GitSigningKeys {
    let connection: SQLiteConnection

    public init(database: HostDatabase) { self.connection = database.connection }

    public static let maxEmailLength = 254

    /// Why `email` cannot be a principal of the allowed signers file, or nil. The file's
    /// first field is a comma-separated list of patterns ended by white space
    /// (sshsig.c parse_principals_key_and_options, match_pattern_list), so the email holds
    /// printable ASCII without space, `,`, `"`, `*`, `?`, `!` or `#`.
    public static func problem(_ email: String) -> String? {
        if email.isEmpty { return "the email is empty" }
        if email.utf8.count > maxEmailLength { return "the email is longer than \(maxEmailLength) characters" }
        let refused = Set(" ,\"*?!#".utf8)
        if !email.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f && !refused.contains($0) }) {
            return "the email may hold only printable ASCII without spaces or any of , \" * ? ! #"
        }
        return nil
    }

    /// The email `key` signs git commits as, or nil when it is not set up for git.
    public func email(of key: StoredKey) throws -> String? {
        try connection.query("SELECT email FROM key_git_identities WHERE key_id = ?", [.int(key.id)]).first?.text(0)
    }

    /// What `set(email:for:)` did to the key's namespaces.
    public enum NamespaceChange: Sendable, Equatable {
        /// It already signed in namespace `git`.
        case none
        /// It had no namespace: now it signs only in `git`.
        case restrictedToGit
        /// It had other namespaces: `git` was added to them.
        case gitAdded
        /// It had no namespace and was left so (`narrow` was false): it signs git's
        /// signatures and ssh logins alike.
        case leftUnrestricted
    }

    /// Records `email` for `key`, replacing the one it had, and makes sure the key may sign
    /// in namespace `git` while staying restricted (in the same transaction). A key with no
    /// namespace is restricted to `git` only when `narrow` is true.
    @discardableResult
    public func set(email: String, for key: StoredKey, narrow: Bool = true) throws -> NamespaceChange {
        if let problem = Self.problem(email) { throw HostStoreError(.rejected, problem) }
        return try connection.transaction {
            _ = try connection.run("INSERT INTO key_git_identities (key_id, email) VALUES (?, ?) ON CONFLICT(key_id) DO UPDATE SET email = excluded.email",
                                   [.int(key.id), .text(email)])
            let namespaces = try connection.query("SELECT namespace FROM key_namespaces WHERE key_id = ?", [.int(key.id)]).compactMap { $0.text(0) }
            if namespaces.contains("git") { return .none }
            if namespaces.isEmpty && !narrow { return .leftUnrestricted }
            _ = try connection.run("INSERT INTO key_namespaces (key_id, namespace) VALUES (?, 'git')", [.int(key.id)])
            return namespaces.isEmpty ? .restrictedToGit : .gitAdded
        }
    }

    /// Every key set up for git with its email, by key name.
    public func all() throws -> [GitSigningKey] {
        let store = KeyStore(connection: connection)
        let emails = try connection.query("SELECT key_id, email FROM key_git_identities")
        var byID: [Int64: String] = [:]
        for row in emails { if let id = row.int(0), let email = row.text(1) { byID[id] = email } }
        return try store.list().compactMap { key in byID[key.id].map { GitSigningKey(key: key, email: $0) } }
    }
}
