// The declaration of one command: its words, options, positionals, help text and body.
// Each noun's commands live in their own file under Commands/ and are listed in CommandTable.

struct OptionSpec: Sendable {
    /// Long name without dashes, e.g. "port".
    let name: String
    /// Placeholder for the value (e.g. "N"); nil for a boolean flag.
    let valueName: String?
    let repeatable: Bool
    let help: String
    /// A one-letter spelling, `-l USER` or `-lUSER` as well as `--user USER` (for a command
    /// whose options mirror another program's, such as ssh's `-l`); nil for most options.
    var short: Character? = nil

    static func flag(_ name: OptionName, _ help: String) -> OptionSpec {
        OptionSpec(name: name.rawValue, valueName: nil, repeatable: false, help: help)
    }

    static func value(_ name: OptionName, _ valueName: String, _ help: String, repeatable: Bool = false, short: Character? = nil) -> OptionSpec {
        OptionSpec(name: name.rawValue, valueName: valueName, repeatable: repeatable, help: help, short: short)
    }

    /// How help and the man page name it: `--name`, or `-s, --name` with a short spelling.
    var spelled: String { (short.map { "-\($0), " } ?? "") + "--" + name }
}

struct PositionalSpec: Sendable {
    let name: String
    let optional: Bool
    let help: String
    /// What shell completion offers here (saved host, key or snippet names, files).
    var completes: CompletionKind = .nothing

    static func required(_ name: String, _ help: String, completes: CompletionKind = .nothing) -> PositionalSpec {
        PositionalSpec(name: name, optional: false, help: help, completes: completes)
    }
    static func optional(_ name: String, _ help: String, completes: CompletionKind = .nothing) -> PositionalSpec {
        PositionalSpec(name: name, optional: true, help: help, completes: completes)
    }
}

struct CommandSpec: Sendable {
    /// The command words after `hostbook`, e.g. ["keys", "import"].
    let words: [String]
    /// One line shown in lists of commands.
    let summary: String
    /// The usage line after `hostbook <words>`; derived from the options when nil.
    let usage: String?
    /// Paragraphs shown under the usage in `--help`.
    let discussion: String?
    let positionals: [PositionalSpec]
    let options: [OptionSpec]
    /// True for a command that hands the rest of its command line to another program
    /// (`hostbook ssh HOST [SSH-ARGS...]`): hostbook's options and the global ones are
    /// recognised only before the first positional; every word after it, `--`, `--json` and
    /// `-v` included, goes unchanged into `ParsedArguments.trailing`.
    let passesArgumentsAfterFirstPositional: Bool
    /// True for a command whose success changes the saved hosts or keys: the installed ssh
    /// configuration is rewritten after it (InstalledConfigRefresh.after).
    let changesHostsOrKeys: Bool
    let run: @Sendable (Invocation) throws -> Void

    init(_ words: [String], changesHostsOrKeys: Bool = false, summary: String, usage: String? = nil, discussion: String? = nil,
         positionals: [PositionalSpec] = [], options: [OptionSpec] = [],
         passesArgumentsAfterFirstPositional: Bool = false,
         run: @escaping @Sendable (Invocation) throws -> Void) {
        self.passesArgumentsAfterFirstPositional = passesArgumentsAfterFirstPositional
        self.words = words
        self.changesHostsOrKeys = changesHostsOrKeys
        self.summary = summary
        self.usage = usage
        self.discussion = discussion
        self.positionals = positionals
        self.options = options
        self.run = run
    }

    var commandLine: String { (["hostbook"] + words).joined(separator: " ") }
}
