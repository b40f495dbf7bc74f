// What a shell completes with hostbook's saved names (printed by `hostbook __complete
// KIND`, CompleteFastPath), and which option values take them.
import CommandLineKit

enum SavedNames {
    static let hosts = CompletionKind.named("hosts")
    static let keys = CompletionKind.named("keys")
    static let snippets = CompletionKind.named("snippets")

    /// For an option's value, decided by its name and placeholder: `--key KEY` and `--sign KEY` are keys,
    /// `--jump HOST` a host, `--snippet NAME` a snippet, FILE/PATH/DIR values are files.
    static func forOption(_ o: OptionSpec) -> CompletionKind {
        guard let value = o.valueName else { return .nothing }
        switch (o.name, value) {
        case ("key", "KEY"), ("sign", "KEY"): return keys
        case ("jump", "HOST"), ("no-alias", "A"): return hosts
        case ("snippet", _): return snippets
        case (_, "FILE"), (_, "PATH"), (_, "F"), (_, "DIR"): return .files
        default: return .nothing
        }
    }
}
