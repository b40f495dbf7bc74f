// The JSON object of a snippet: name, command (exactly as stored), description, tags, then times.
import HostStore

public enum SnippetJSON {
    public static func snippet(_ s: Snippet) -> JSONValue {
        .object([
            ("name", .string(s.name)),
            ("command", .string(s.command)),
            ("description", .optional(s.description)),
            ("tags", .array(s.tags.map { .string($0) })),
            ("created_at", .string(s.createdAt)),
            ("updated_at", .string(s.updatedAt)),
        ])
    }
}
