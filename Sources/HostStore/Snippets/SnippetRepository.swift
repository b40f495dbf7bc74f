// Reading and writing snippets; names are unique regardless of case.

extension HostDatabase {
    static let snippetColumns = "SELECT id, uuid, name, command, description, created_at, updated_at FROM snippets"

    public func snippets() throws -> [Snippet] {
        try read {
            let s = try connection.prepare(HostDatabase.snippetColumns + " ORDER BY name COLLATE NOCASE")
            var out: [Snippet] = []
            while try s.step() { out.append(HostDatabase.snippet(from: s)) }
            return out
        }
    }

    public func snippet(named name: String) throws -> Snippet? {
        try read { try findSnippet(name) }
    }

    func findSnippet(_ name: String) throws -> Snippet? {
        let s = try connection.prepare(HostDatabase.snippetColumns + " WHERE name = ?")
        try s.bind([.text(name)])
        return try s.step() ? HostDatabase.snippet(from: s) : nil
    }

    static func snippet(from s: Statement) -> Snippet {
        Snippet(id: s.int(at: 0) ?? 0, uuid: s.text(at: 1) ?? "", name: s.text(at: 2) ?? "", command: s.text(at: 3) ?? "",
                description: s.text(at: 4), createdAt: s.text(at: 5) ?? "", updatedAt: s.text(at: 6) ?? "")
    }

    static func noSnippet(_ name: String) -> HostStoreError {
        .notFound("no snippet named '\(name)'", remedy: .listSnippets)
    }

    /// Stores a new snippet. `command` must already have passed `SnippetRules.command`.
    @discardableResult
    public func addSnippet(name: String, command: String, description: String?) throws -> Snippet {
        try HostValidation.name(name, what: "snippet name")
        if let description { try SnippetRules.description(description) }
        _ = try SnippetRules.command(Array(command.utf8))
        return try write { () throws -> Snippet in
            if let existing = try findSnippet(name) {
                throw HostStoreError.rejected("a snippet named '\(existing.name)' already exists",
                                              remedy: .renameOrEditSnippet(existing: existing.name))
            }
            try connection.run("""
                INSERT INTO snippets(uuid, name, command, description, created_at, updated_at)
                VALUES (?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ','now'), strftime('%Y-%m-%dT%H:%M:%SZ','now'))
                """, [.text(UUIDString.random()), .text(name), .text(command), description.map { .text($0) } ?? .null])
            guard let s = try findSnippet(name) else { throw HostDatabase.noSnippet(name) }
            return s
        }
    }

    /// Changes a snippet; nil leaves a field as it is (an empty description clears it).
    @discardableResult
    public func editSnippet(_ name: String, rename: String?, command: String?, description: String?) throws -> Snippet {
        if let rename { try HostValidation.name(rename, what: "snippet name") }
        if let description { try SnippetRules.description(description) }
        if let command { _ = try SnippetRules.command(Array(command.utf8)) }
        return try write { () throws -> Snippet in
            guard let old = try findSnippet(name) else { throw HostDatabase.noSnippet(name) }
            if let rename, let other = try findSnippet(rename), other.id != old.id {
                throw HostStoreError.rejected("a snippet named '\(other.name)' already exists", hint: "Choose another name.")
            }
            let newDescription = description.map { $0.isEmpty ? nil : $0 } ?? old.description
            try connection.run("""
                UPDATE snippets SET name = ?, command = ?, description = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ','now') WHERE id = ?
                """, [.text(rename ?? old.name), .text(command ?? old.command), newDescription.map { .text($0) } ?? .null, .int(old.id)])
            guard let s = try findSnippet(rename ?? old.name) else { throw HostDatabase.noSnippet(name) }
            return s
        }
    }

    @discardableResult
    public func removeSnippet(_ name: String) throws -> Snippet {
        try write { () throws -> Snippet in
            guard let s = try findSnippet(name) else { throw HostDatabase.noSnippet(name) }
            try connection.run("DELETE FROM snippets WHERE id = ?", [.int(s.id)])
            return s
        }
    }
}
