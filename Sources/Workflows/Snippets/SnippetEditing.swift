// The snippet commands' work over the workspace's database: find one (refused when there
// is none, creating nothing), add, change and remove.
import HostStore

/// `snippets edit`'s changes as given.
public struct SnippetChanges: Sendable {
    public var rename: String?
    /// The new command, already checked (SnippetCommandText).
    public var command: String?
    /// "" clears it.
    public var description: String?
    public var addTags: [String] = []
    public var removeTags: [String] = []

    public init(rename: String? = nil, command: String? = nil, description: String? = nil, addTags: [String] = [], removeTags: [String] = []) {
        self.rename = rename
        self.command = command
        self.description = description
        self.addTags = addTags
        self.removeTags = removeTags
    }
}

public enum SnippetEditing {
    /// The snippet `name` for a command that reads it; `SnippetsRefusal.notFound` when there
    /// is none (or no database: nothing is created).
    public static func existing(_ name: String, in workspace: Workspace) throws -> Snippet {
        guard let s = try workspace.existingDatabase()?.snippet(named: name) else { throw SnippetsRefusal.notFound(name) }
        return s
    }

    /// A snippet's name by the hosts' rule, checked before its command is read.
    public static func checkName(_ name: String) throws {
        try HostValidation.name(name, what: "snippet name")
    }

    public static func add(_ name: String, command: String, description: String?, tags: [String], in workspace: Workspace) throws -> Snippet {
        try workspace.database().addSnippet(name: name, command: command, description: description, tags: tags)
    }

    /// Changes snippet `name` (its fields, then its tags); the snippet as it is now.
    public static func edit(_ name: String, _ c: SnippetChanges, in workspace: Workspace) throws -> Snippet {
        let db = try workspace.database()
        guard var s = try db.snippet(named: name) else { throw SnippetsRefusal.notFound(name) }
        if c.rename != nil || c.command != nil || c.description != nil {
            s = try db.editSnippet(name, rename: c.rename, command: c.command, description: c.description)
        }
        if !c.addTags.isEmpty || !c.removeTags.isEmpty {
            s = try db.tagSnippet(s.name, add: c.addTags, remove: c.removeTags)
        }
        return s
    }

    public static func remove(_ name: String, in workspace: Workspace) throws -> Snippet {
        try workspace.database().removeSnippet(name)
    }
}
