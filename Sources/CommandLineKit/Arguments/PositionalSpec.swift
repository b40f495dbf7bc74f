// The declaration of one positional argument, and what a shell completes for it.

public struct PositionalSpec: Sendable {
    public let name: String
    public let optional: Bool
    public let help: String
    /// What shell completion offers here.
    public let completes: CompletionKind

    public static func required(_ name: String, _ help: String, completes: CompletionKind = .nothing) -> PositionalSpec {
        PositionalSpec(name: name, optional: false, help: help, completes: completes)
    }
    public static func optional(_ name: String, _ help: String, completes: CompletionKind = .nothing) -> PositionalSpec {
        PositionalSpec(name: name, optional: true, help: help, completes: completes)
    }
}

/// What a shell offers for a positional argument or an option's value: nothing, file
/// names, or the names the program lists itself for a kind of its own (its completer
/// command prints them: CompletionScripts).
public struct CompletionKind: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let nothing = CompletionKind(rawValue: "nothing")
    public static let files = CompletionKind(rawValue: "files")
    /// Names the program's completer prints for `kind` (saved hosts, say).
    public static func named(_ kind: String) -> CompletionKind { CompletionKind(rawValue: kind) }
}
