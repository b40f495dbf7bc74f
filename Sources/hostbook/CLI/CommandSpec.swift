// One command of the table: its declaration (words, options, positionals, help text; the
// parser, help, the man page and the completions read it) and what it runs. Each noun's
// commands live in their own file under Commands/ and are listed in CommandTable.
import CommandLineKit

typealias OptionSpec = CommandLineKit.OptionSpec<OptionName>
typealias ParsedArguments = CommandLineKit.ParsedArguments<OptionName>
typealias CommandDeclaration = CommandLineKit.CommandDeclaration<OptionName>

struct CommandSpec: Sendable {
    let declaration: CommandDeclaration
    /// True for a command whose success changes the saved hosts or keys: the installed ssh
    /// configuration is rewritten after it (InstalledConfigRefresh.after).
    let changesHostsOrKeys: Bool
    let run: @Sendable (Invocation) throws -> Void

    init(_ words: [String], changesHostsOrKeys: Bool = false, summary: String, usage: String? = nil, discussion: String? = nil,
         positionals: [PositionalSpec] = [], options: [OptionSpec] = [],
         passesArgumentsAfterFirstPositional: Bool = false,
         run: @escaping @Sendable (Invocation) throws -> Void) {
        self.declaration = CommandDeclaration(words: words, summary: summary, usage: usage, discussion: discussion,
                                              positionals: positionals, options: options,
                                              passesArgumentsAfterFirstPositional: passesArgumentsAfterFirstPositional)
        self.changesHostsOrKeys = changesHostsOrKeys
        self.run = run
    }

    var words: [String] { declaration.words }

    /// `hostbook WORDS...`.
    var commandLine: String { declaration.commandLine(program: CommandLineParser.program) }
}
