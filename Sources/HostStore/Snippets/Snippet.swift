// A saved command line, kept exactly as typed (docs/snippets.md).

public struct Snippet: Sendable, Equatable {
    public var id: Int64
    public var uuid: String
    public var name: String
    public var command: String
    public var description: String?
    public var createdAt: String
    public var updatedAt: String
    /// Its tags (snippet_tags), in the order they were given.
    public var tags: [String] = []
}
