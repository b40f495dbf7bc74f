// The SSHSIG namespaces a key is restricted to (`hostbook keys edit NAME --namespace NS`),
// in the `key_namespaces` table (KeysSchema.v5GitSigning). A key with namespaces signs only
// SSHSIG requests in them, never ssh authentication, and is not offered to servers (the
// decision is AgentAccessPolicy's); a key without any is not restricted. Rows go with
// their key (ON DELETE CASCADE).

public struct KeyNamespaces {
    let connection: SQLiteConnection

    public init(database: HostDatabase) { self.connection = database.connection }

    public static let maxLength = 64

    /// Why `namespace` cannot be one, or nil: 1 to 64 of ASCII letters, digits and `.-_@+`
    /// (PROTOCOL.sshsig namespaces are short names such as `git` and `file`, or
    /// `name@domain`); nothing that could be mistaken for something else in a log or a prompt.
    public static func problem(_ namespace: String) -> String? {
        if namespace.isEmpty { return "a namespace cannot be empty" }
        if namespace.utf8.count > maxLength { return "a namespace is at most \(maxLength) characters" }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_@+".utf8)
        if !namespace.utf8.allSatisfy(allowed.contains) { return "a namespace holds only letters, digits and . - _ @ +" }
        return nil
    }

    /// The namespaces of `key`, sorted; empty when it is not restricted.
    public func namespaces(of key: StoredKey) throws -> [String] {
        try connection.query("SELECT namespace FROM key_namespaces WHERE key_id = ? ORDER BY namespace", [.int(key.id)])
            .compactMap { $0.text(0) }
    }

    /// Every restricted key's namespaces, by key id.
    public func all() throws -> [Int64: Set<String>] {
        var result: [Int64: Set<String>] = [:]
        for row in try connection.query("SELECT key_id, namespace FROM key_namespaces") {
            guard let id = row.int(0), let namespace = row.text(1) else { continue }
            result[id, default: []].insert(namespace)
        }
        return result
    }

    /// Makes `namespaces` the key's whole set (empty: no longer restricted), in one
    /// transaction. Every namespace must pass `problem`.
    public func set(_ namespaces: Set<String>, for key: StoredKey) throws {
        for namespace in namespaces {
            if let problem = Self.problem(namespace) { throw HostStoreError(.rejected, problem) }
        }
        try connection.transaction {
            _ = try connection.run("DELETE FROM key_namespaces WHERE key_id = ?", [.int(key.id)])
            for namespace in namespaces.sorted() {
                _ = try connection.run("INSERT INTO key_namespaces (key_id, namespace) VALUES (?, ?)", [.int(key.id), .text(namespace)])
            }
        }
    }
}
