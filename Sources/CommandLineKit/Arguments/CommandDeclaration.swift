// The declaration of one command: its words, help text, positionals and options. The
// program keeps its commands in a table of these (with what each one runs); the parser,
// help, the man page and the completion scripts read the same values.

public struct CommandDeclaration<Name: OptionNaming>: Sendable {
    /// The command words after the program's name, e.g. ["keys", "import"].
    public let words: [String]
    /// One line shown in lists of commands.
    public let summary: String
    /// The usage line after the command words; derived from the options when nil.
    public let usage: String?
    /// Paragraphs shown under the usage in `--help`.
    public let discussion: String?
    public let positionals: [PositionalSpec]
    public let options: [OptionSpec<Name>]
    /// True for a command that hands the rest of its command line to another program (as
    /// `PROGRAM ssh HOST [SSH-ARGS...]` does): its options and the global ones are recognised
    /// only before the first positional; every word after it, `--` and options included,
    /// goes unchanged into `ParsedArguments.trailing`.
    public let passesArgumentsAfterFirstPositional: Bool

    public init(words: [String], summary: String, usage: String?, discussion: String?,
                positionals: [PositionalSpec], options: [OptionSpec<Name>], passesArgumentsAfterFirstPositional: Bool) {
        self.words = words
        self.summary = summary
        self.usage = usage
        self.discussion = discussion
        self.positionals = positionals
        self.options = options
        self.passesArgumentsAfterFirstPositional = passesArgumentsAfterFirstPositional
    }

    /// `PROGRAM WORDS...`, as messages and help name the command.
    public func commandLine(program: String) -> String { ([program] + words).joined(separator: " ") }
}
