// A snippet's tags (snippet_tags): `snippets add|edit --tag T`, `snippets edit --untag T`.
// `bundle export --tag T` publishes the snippets with tag T beside the hosts with it.
// Tags follow the hosts' rule (HostValidation.tag) and compare regardless of case.

extension HostDatabase {
    /// `s` with its tags read from the database.
    func withTags(_ s: Snippet) throws -> Snippet {
        var s = s
        s.tags = try connection.query("SELECT tag FROM snippet_tags WHERE snippet_id = ? ORDER BY rowid", [.int(s.id)]).compactMap { $0.text(0) }
        return s
    }

    /// Adds `add` to the tags of snippet `name` and removes `remove` (a tag it does not have
    /// is refused, nothing changed), in one transaction.
    @discardableResult
    public func tagSnippet(_ name: String, add: [String], remove: [String] = []) throws -> Snippet {
        for t in add { try HostValidation.tag(t) }
        return try write { () throws -> Snippet in
            guard let s = try findSnippet(name) else { throw HostDatabase.noSnippet(name) }
            for t in remove {
                guard s.tags.contains(where: { $0.lowercased() == t.lowercased() }) else {
                    throw HostStoreError.rejected("snippet '\(s.name)' has no tag '\(t)'")
                }
                try connection.run("DELETE FROM snippet_tags WHERE snippet_id = ? AND tag = ?", [.int(s.id), .text(t)])
            }
            for t in add {
                try connection.run("INSERT OR IGNORE INTO snippet_tags (snippet_id, tag) VALUES (?, ?)", [.int(s.id), .text(t)])
            }
            guard let tagged = try findSnippet(s.name) else { throw HostDatabase.noSnippet(name) }
            return tagged
        }
    }
}
