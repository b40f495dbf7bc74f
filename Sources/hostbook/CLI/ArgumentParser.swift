// Turns argv into a command and its parsed arguments in one pass from left to right that
// knows each option's arity: a value option takes the next word as its value whatever it
// looks like (`--note -h` is the note "-h"). Global options (--db, --json, --no-input,
// --help/-h, --version) are recognised before or after the command words, wherever a flag
// may stand, never as the value of an option. Long options take their value as
// `--name VALUE` or `--name=VALUE`; `--` ends the options (everything after it is a
// positional). A command that passes arguments through (`CommandSpec.passesArgumentsAfterFirstPositional`)
// recognises options only before its first positional; every word after that is passed
// on unchanged, `--`, `--json` and `-v` included.
//
// `hostbook help [COMMAND...]` prints the help of COMMAND, and a group's words alone
// (`hostbook keys`) print the group's help; both exit 0, as `gh` does. A mistyped command
// word or option gets the nearest known one as a suggestion (NearestName), never run.
import HostStore

struct GlobalOptions: Sendable {
    var dbPath: String?
    var json = false
    var noInput = false
    var help = false
    var version = false
}

enum ParseOutcome {
    case run(CommandSpec, ParsedArguments, GlobalOptions)
    /// `--help` for a command, a group of commands, or the whole program.
    case help(String)
    case version
}

struct ArgumentParser {
    let commands: [CommandSpec]

    static let globalOptions: [OptionSpec] = [
        .value(.db, "PATH", "Database file (default $HOSTBOOK_DB, else $XDG_DATA_HOME/hostbook/hostbook.db)"),
        .flag(.json, "Print machine-readable JSON"),
        .flag(.noInput, "Never prompt; fail with exit 3 when input would be needed"),
        .flag(.help, "Show help for the command"),
        .flag(.version, "Print the version"),
    ]

    /// The word that asks for help on the words after it.
    static let helpWord = "help"

    func parse(_ argv: [String]) throws -> ParseOutcome {
        var state = ParseState(commands: commands)
        var i = 0
        while i < argv.count {
            let a = argv[i]
            i += 1
            if state.passingThrough {
                state.parsed.trailing.append(a)
                continue
            }
            if state.endOfOptions || a == "-" || !a.hasPrefix("-") {
                try state.word(a)
                continue
            }
            if a == "--" {
                state.endOfOptions = true
                continue
            }
            if a == "-h" {
                state.globals.help = true
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
                        state.fail(CLIError.usage("\(a) needs a value (\(option.valueName ?? ""))", hint: state.usageHint))
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
                    state.fail(CLIError.usage("--\(name) needs a value (\(valueName))", hint: state.usageHint))
                    continue
                }
            } else if inline != nil {
                state.fail(CLIError.usage("--\(name) does not take a value", hint: state.usageHint))
                continue
            }
            if isGlobal {
                try state.global(name, value: value)
            } else {
                state.commandOption(option, value: value)
            }
        }
        return try state.finish()
    }
}

/// What one pass over argv has found so far.
private struct ParseState {
    let commands: [CommandSpec]
    var globals = GlobalOptions()
    /// The command words found so far (a group's words before its subcommand).
    var words: [String] = []
    var spec: CommandSpec?
    var parsed = ParsedArguments()
    var endOfOptions = false
    var passingThrough = false
    /// `hostbook help ...`: the words after `help` name what to explain.
    var helpWords: [String]?
    /// The first mistake; reported at the end unless --help was asked for.
    var error: CLIError?

    init(commands: [CommandSpec]) { self.commands = commands }

    var usageHint: String {
        if let spec { return "Run '\(spec.commandLine) --help' for usage." }
        return words.isEmpty ? "Run 'hostbook --help' for usage." : "Run 'hostbook \(words.joined(separator: " ")) --help' to see its commands."
    }

    mutating func fail(_ e: CLIError) { if error == nil { error = e } }

    func unknownOption(_ option: String) -> CLIError {
        // "Did you mean": the nearest of this command's options and the global ones.
        let known = (spec?.options ?? []) + ArgumentParser.globalOptions
        let near = option.hasPrefix("--") ? NearestName.nearest(to: String(option.dropFirst(2)), among: known.map(\.name)) : nil
        let hint = ArgumentParser.didYouMean(near.map { "--" + $0 }, usageHint)
        if let spec { return CLIError.usage("unknown option '\(option)' for '\(spec.commandLine)'", hint: hint) }
        if words.isEmpty { return CLIError.usage("unknown option '\(option)'", hint: hint) }
        return CLIError.usage("unknown option '\(option)' for 'hostbook \(words.joined(separator: " "))'", hint: hint)
    }

    /// The command's own option of that name, else the global one.
    func option(named name: String) -> (OptionSpec, Bool)? {
        if let spec, let o = spec.options.first(where: { $0.name == name }) { return (o, false) }
        if let o = ArgumentParser.globalOptions.first(where: { $0.name == name }) { return (o, true) }
        return nil
    }

    /// The command's value option whose short spelling starts `a` (`-l` of `-l`/`-lroot`).
    func shortOption(_ a: String) -> OptionSpec? {
        let letters = Array(a.dropFirst())
        guard let spec, let letter = letters.first, letter != "-" else { return nil }
        return spec.options.first { $0.short == letter && $0.valueName != nil }
    }

    mutating func global(_ name: String, value: String?) throws {
        switch name {
        case "db":
            guard let value, !value.isEmpty else { throw CLIError.usage("--db needs a non-empty path") }
            globals.dbPath = value
        case "json": globals.json = true
        case "no-input": globals.noInput = true
        case "help": globals.help = true
        case "version": globals.version = true
        default: break
        }
    }

    mutating func commandOption(_ option: OptionSpec, value: String?) {
        guard let value else {
            parsed.flags.insert(option.name)
            return
        }
        if !option.repeatable, parsed.values[option.name] != nil {
            fail(CLIError.usage("--\(option.name) was given more than once", hint: usageHint))
            return
        }
        parsed.values[option.name, default: []].append(value)
    }

    /// A word that is not an option: a command word, the help word, or a positional.
    mutating func word(_ a: String) throws {
        if helpWords != nil {
            helpWords!.append(a)
            return
        }
        if let spec {
            parsed.positionals.append(a)
            if spec.passesArgumentsAfterFirstPositional && parsed.positionals.count == 1 { passingThrough = true }
            return
        }
        if words.isEmpty && a == ArgumentParser.helpWord && !commands.contains(where: { $0.words.first == a }) {
            helpWords = []
            return
        }
        let candidate = words + [a]
        if commands.contains(where: { $0.words.starts(with: candidate) }) {
            words = candidate
            // Settled once no longer command starts with these words.
            if let exact = commands.first(where: { $0.words == words }),
               !commands.contains(where: { $0.words.count > words.count && $0.words.starts(with: words) }) {
                settle(exact)
            }
            return
        }
        if let exact = commands.first(where: { $0.words == words }) {
            settle(exact)
            try word(a)
            return
        }
        fail(ArgumentParser.unknownCommand(a, after: words, commands))
        // Whatever follows an unknown command is not parsed further.
        endOfOptions = true
        helpWords = []
    }

    mutating func settle(_ command: CommandSpec) {
        spec = command
        parsed.commandLine = command.commandLine
        parsed.declared = Set(command.options.map(\.name))
    }

    mutating func finish() throws -> ParseOutcome {
        if spec == nil, let exact = commands.first(where: { $0.words == words }) { settle(exact) }
        if let helpWords, error == nil {
            return .help(try ArgumentParser.helpText(for: helpWords, commands))
        }
        if globals.help {
            if let spec { return .help(HelpFormatter.commandHelp(spec)) }
            if words.isEmpty && error == nil { return .help(HelpFormatter.programHelp(commands)) }
            if !words.isEmpty { return .help(HelpFormatter.groupHelp(words, commands)) }
        }
        if let error { throw error }
        guard let spec else {
            if words.isEmpty {
                if globals.version { return .version }
                throw CLIError.usage("no command given", hint: "Run 'hostbook --help' to see the commands.")
            }
            // A group such as `keys` alone: its help, as `gh` does.
            return .help(HelpFormatter.groupHelp(words, commands))
        }
        let hint = usageHint
        let required = spec.positionals.filter { !$0.optional }.count
        if parsed.positionals.count < required {
            let missing = spec.positionals[parsed.positionals.count]
            throw CLIError.usage("missing \(missing.name) for '\(spec.commandLine)'", hint: hint)
        }
        if parsed.positionals.count > spec.positionals.count {
            let extra = parsed.positionals[spec.positionals.count]
            throw CLIError.usage("unexpected argument '\(extra)' for '\(spec.commandLine)'", hint: hint)
        }
        return .run(spec, parsed, globals)
    }
}

extension ArgumentParser {
    /// The help `hostbook help WORDS...` prints: the program's, a group's or a command's,
    /// the same text as `WORDS... --help`.
    static func helpText(for words: [String], _ commands: [CommandSpec]) throws -> String {
        if words.isEmpty || words == [helpWord] { return HelpFormatter.programHelp(commands) }
        if let spec = commands.first(where: { $0.words == words }) { return HelpFormatter.commandHelp(spec) }
        if commands.contains(where: { $0.words.starts(with: words) }) { return HelpFormatter.groupHelp(words, commands) }
        // The longest known prefix says where the unknown word is.
        var known: [String] = []
        for w in words {
            if commands.contains(where: { $0.words.starts(with: known + [w]) }) { known.append(w) } else { break }
        }
        let bad = words[known.count]
        if !known.isEmpty, commands.contains(where: { $0.words == known }) {
            throw CLIError.usage("'hostbook \(known.joined(separator: " "))' has no subcommand '\(bad)'",
                                 hint: "Run 'hostbook help \(known.joined(separator: " "))' for its usage.")
        }
        throw unknownCommand(bad, after: known, commands)
    }

    /// `word` is no command after `words` (none, or a group's): the nearest command word
    /// there (NearestName) is suggested, never run.
    static func unknownCommand(_ word: String, after words: [String], _ commands: [CommandSpec]) -> CLIError {
        var next: [String] = []
        for c in commands where c.words.count > words.count && Array(c.words.prefix(words.count)) == words {
            if !next.contains(c.words[words.count]) { next.append(c.words[words.count]) }
        }
        if words.isEmpty, !next.contains(helpWord) { next.append(helpWord) }
        let near = NearestName.nearest(to: word, among: next).map { (words + [$0]).joined(separator: " ") }
        if words.isEmpty {
            return CLIError.usage("unknown command '\(word)'", hint: didYouMean(near, "Run 'hostbook --help' to see the commands."))
        }
        let group = words.joined(separator: " ")
        return CLIError.usage("unknown command '\(word)' for 'hostbook \(group)'",
                              hint: didYouMean(near, "Run 'hostbook \(group) --help' to see its commands."))
    }

    /// The hint of a usage error, led by a suggestion when there is one: "Did you mean
    /// 'hostbook list'? Run 'hostbook --help' to see the commands."
    static func didYouMean(_ suggestion: String?, _ hint: String) -> String {
        guard let suggestion else { return hint }
        return (suggestion.hasPrefix("-") ? "Did you mean '\(suggestion)'? " : "Did you mean 'hostbook \(suggestion)'? ") + hint
    }
}
