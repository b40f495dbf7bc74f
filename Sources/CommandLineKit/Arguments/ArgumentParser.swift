// Turns argv into a command and its parsed arguments in one pass from left to right that
// knows each option's arity: a value option takes the next word as its value whatever it
// looks like (`--note -h` is the note "-h"). Global options are recognised before or after
// the command words, wherever a flag may stand, never as the value of an option; `-h` is
// the help option. Long options take their value as `--name VALUE` or `--name=VALUE`; `--`
// ends the options (everything after it is a positional). A command that passes arguments
// through (`CommandDeclaration.passesArgumentsAfterFirstPositional`) recognises options only
// before its first positional; every word after that is passed on unchanged, `--` and
// options included.
//
// `PROGRAM help [COMMAND...]` gives the help of COMMAND, and a group's words alone
// (`PROGRAM keys`) the group's help, as `gh` does. A mistyped command word or option gets
// the nearest known one as a suggestion (NearestName), never run. The first mistake is the
// one thrown (an ArgumentError), unless help was asked for.
import KeyFormats

/// What the command line asks for.
public enum ParseOutcome<Name: OptionNaming>: Sendable {
    /// The command at `command` in the parser's table, its arguments, and the global options given.
    case run(command: Int, ParsedArguments<Name>, globals: ParsedArguments<Name>)
    /// `--help` for a command, a group of commands, or the whole program: the text to print.
    case help(String)
    case version
}

public struct ArgumentParser<Name: OptionNaming>: Sendable {
    public let commands: [CommandDeclaration<Name>]
    /// The program's help, which also holds its name and global options.
    public let help: HelpFormatter<Name>
    public let helpOption: Name
    public let versionOption: Name

    /// The word that asks for help on the words after it.
    public static var helpWord: String { "help" }

    public init(commands: [CommandDeclaration<Name>], help: HelpFormatter<Name>, helpOption: Name, versionOption: Name) {
        self.commands = commands
        self.help = help
        self.helpOption = helpOption
        self.versionOption = versionOption
    }

    public func parse(_ argv: [String]) throws(ArgumentError) -> ParseOutcome<Name> {
        var state = ParseState(parser: self)
        var i = 0
        while i < argv.count {
            let a = argv[i]
            i += 1
            if state.passingThrough {
                state.parsed.trailing.append(a)
                continue
            }
            if state.endOfOptions || a == "-" || !a.hasPrefix("-") {
                state.word(a)
                continue
            }
            if a == "--" {
                state.endOfOptions = true
                continue
            }
            if a == "-h" {
                state.globals.flags.insert(helpOption.rawValue)
                continue
            }
            guard a.hasPrefix("--") else {
                // A command's one-letter option (`-l USER`, `-lUSER`), as the program it mirrors spells it.
                if let option = state.shortOption(a) {
                    let attached = String(a.dropFirst(2))
                    if !attached.isEmpty {
                        state.commandOption(option, value: attached)
                    } else if i < argv.count {
                        state.commandOption(option, value: argv[i])
                        i += 1
                    } else {
                        state.fail(.missingValue(option: a, valueName: option.valueName ?? "", place: state.place))
                    }
                    continue
                }
                state.fail(state.unknownOption(a))
                continue
            }
            var name = String(a.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let (option, isGlobal) = state.option(named: name) else {
                state.fail(state.unknownOption("--" + name))
                continue
            }
            var value: String?
            if let valueName = option.valueName {
                if let inline {
                    value = inline
                } else if i < argv.count {
                    value = argv[i]
                    i += 1
                } else {
                    state.fail(.missingValue(option: "--" + name, valueName: valueName, place: state.place))
                    continue
                }
                if option.nonEmpty, value == "" { throw .emptyValue(option: name, valueName: valueName) }
            } else if inline != nil {
                state.fail(.takesNoValue(option: "--" + name, place: state.place))
                continue
            }
            if isGlobal {
                state.global(option, value: value)
            } else {
                state.commandOption(option, value: value)
            }
        }
        return try state.finish()
    }

    /// The help `PROGRAM help WORDS...` prints: the program's, a group's or a command's,
    /// the same text as `WORDS... --help`.
    public func helpText(for words: [String]) throws(ArgumentError) -> String {
        if words.isEmpty || words == [Self.helpWord] { return help.programHelp(commands) }
        if let command = commands.first(where: { $0.words == words }) { return help.commandHelp(command) }
        if commands.contains(where: { $0.words.starts(with: words) }) { return help.groupHelp(words, commands) }
        // The longest known prefix says where the unknown word is.
        var known: [String] = []
        for w in words {
            if commands.contains(where: { $0.words.starts(with: known + [w]) }) { known.append(w) } else { break }
        }
        let bad = words[known.count]
        if !known.isEmpty, commands.contains(where: { $0.words == known }) {
            throw .noSubcommand(word: bad, command: known)
        }
        throw unknownCommand(bad, after: known)
    }

    /// `word` is no command after `words` (none, or a group's): the nearest command word
    /// there (NearestName) is suggested.
    func unknownCommand(_ word: String, after words: [String]) -> ArgumentError {
        var next: [String] = []
        for c in commands where c.words.count > words.count && Array(c.words.prefix(words.count)) == words {
            if !next.contains(c.words[words.count]) { next.append(c.words[words.count]) }
        }
        if words.isEmpty, !next.contains(Self.helpWord) { next.append(Self.helpWord) }
        let near = NearestName.nearest(to: word, among: next).map { words + [$0] }
        return .unknownCommand(word: word, after: words, suggestion: near)
    }
}

/// What one pass over argv has found so far.
private struct ParseState<Name: OptionNaming> {
    let parser: ArgumentParser<Name>
    var commands: [CommandDeclaration<Name>] { parser.commands }
    var globals = ParsedArguments<Name>()
    /// The command words found so far (a group's words before its subcommand).
    var words: [String] = []
    var index: Int?
    var parsed = ParsedArguments<Name>()
    var endOfOptions = false
    var passingThrough = false
    /// `PROGRAM help ...`: the words after `help` name what to explain.
    var helpWords: [String]?
    /// The first mistake; reported at the end unless help was asked for.
    var error: ArgumentError?

    init(parser: ArgumentParser<Name>) {
        self.parser = parser
        globals.declared = Set(parser.help.globalOptions.map(\.name))
    }

    var command: CommandDeclaration<Name>? { index.map { commands[$0] } }

    var place: ArgumentError.Place {
        if let command { return .command(command.words) }
        return words.isEmpty ? .program : .group(words)
    }

    mutating func fail(_ e: ArgumentError) { if error == nil { error = e } }

    func unknownOption(_ option: String) -> ArgumentError {
        // "Did you mean": the nearest of this command's options and the global ones.
        let known = (command?.options ?? []) + parser.help.globalOptions
        let near = option.hasPrefix("--") ? NearestName.nearest(to: String(option.dropFirst(2)), among: known.map(\.name)) : nil
        return .unknownOption(option: option, place: place, suggestion: near.map { "--" + $0 })
    }

    /// The command's own option of that name, else the global one.
    func option(named name: String) -> (OptionSpec<Name>, Bool)? {
        if let command, let o = command.options.first(where: { $0.name == name }) { return (o, false) }
        if let o = parser.help.globalOptions.first(where: { $0.name == name }) { return (o, true) }
        return nil
    }

    /// The command's value option whose short spelling starts `a` (`-l` of `-l`/`-lroot`).
    func shortOption(_ a: String) -> OptionSpec<Name>? {
        let letters = Array(a.dropFirst())
        guard let command, let letter = letters.first, letter != "-" else { return nil }
        return command.options.first { $0.short == letter && $0.valueName != nil }
    }

    /// A global option: a flag is set, a value replaces the one before (never "given twice").
    mutating func global(_ option: OptionSpec<Name>, value: String?) {
        guard let value else {
            globals.flags.insert(option.name)
            return
        }
        globals.values[option.name] = [value]
    }

    mutating func commandOption(_ option: OptionSpec<Name>, value: String?) {
        guard let value else {
            parsed.flags.insert(option.name)
            return
        }
        if !option.repeatable, parsed.values[option.name] != nil {
            fail(.givenTwice(option: "--" + option.name, place: place))
            return
        }
        parsed.values[option.name, default: []].append(value)
    }

    /// A word that is not an option: a command word, the help word, or a positional.
    mutating func word(_ a: String) {
        if helpWords != nil {
            helpWords!.append(a)
            return
        }
        if let command {
            parsed.positionals.append(a)
            if command.passesArgumentsAfterFirstPositional && parsed.positionals.count == 1 { passingThrough = true }
            return
        }
        if words.isEmpty && a == ArgumentParser<Name>.helpWord && !commands.contains(where: { $0.words.first == a }) {
            helpWords = []
            return
        }
        let candidate = words + [a]
        if commands.contains(where: { $0.words.starts(with: candidate) }) {
            words = candidate
            // Settled once no longer command starts with these words.
            if let exact = commands.firstIndex(where: { $0.words == words }),
               !commands.contains(where: { $0.words.count > words.count && $0.words.starts(with: words) }) {
                settle(exact)
            }
            return
        }
        if let exact = commands.firstIndex(where: { $0.words == words }) {
            settle(exact)
            word(a)
            return
        }
        fail(parser.unknownCommand(a, after: words))
        // Whatever follows an unknown command is not parsed further.
        endOfOptions = true
        helpWords = []
    }

    mutating func settle(_ i: Int) {
        index = i
        parsed.command = commands[i].words
        parsed.declared = Set(commands[i].options.map(\.name))
    }

    mutating func finish() throws(ArgumentError) -> ParseOutcome<Name> {
        if index == nil, let exact = commands.firstIndex(where: { $0.words == words }) { settle(exact) }
        if let helpWords, error == nil {
            return .help(try parser.helpText(for: helpWords))
        }
        if globals.flag(parser.helpOption) {
            if let command { return .help(parser.help.commandHelp(command)) }
            if words.isEmpty && error == nil { return .help(parser.help.programHelp(commands)) }
            if !words.isEmpty { return .help(parser.help.groupHelp(words, commands)) }
        }
        if let error { throw error }
        guard let index, let command else {
            if words.isEmpty {
                if globals.flag(parser.versionOption) { return .version }
                throw .noCommand
            }
            // A group such as `keys` alone: its help, as `gh` does.
            return .help(parser.help.groupHelp(words, commands))
        }
        let required = command.positionals.filter { !$0.optional }.count
        if parsed.positionals.count < required {
            throw .missingPositional(name: command.positionals[parsed.positionals.count].name, command: command.words)
        }
        if parsed.positionals.count > command.positionals.count {
            throw .unexpectedArgument(parsed.positionals[command.positionals.count], command: command.words)
        }
        return .run(command: index, parsed, globals: globals)
    }
}
