// Turns argv into a command and its parsed arguments. Global options (--db, --json,
// --no-input, --help, --version) are accepted before or after the command words.
// Long options take their value as `--name VALUE` or `--name=VALUE`; `--` ends options.

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
        .value("db", "PATH", "Database file (default $HOSTBOOK_DB, else $XDG_DATA_HOME/hostbook/hostbook.db)"),
        .flag("json", "Print machine-readable JSON"),
        .flag("no-input", "Never prompt; fail with exit 3 when input would be needed"),
        .flag("help", "Show help for the command"),
        .flag("version", "Print the version"),
    ]

    func parse(_ argv: [String]) throws -> ParseOutcome {
        var globals = GlobalOptions()
        var rest: [String] = []
        var trailing: [String] = []
        // Pass 1: pull out global options anywhere before `--`, and for a command that
        // passes arguments on (`ssh HOST ...`), before its first positional only.
        var i = 0
        var sawTerminator = false
        var passing: CommandSpec?
        while i < argv.count {
            let a = argv[i]
            if sawTerminator { rest.append(a); i += 1; continue }
            if passing != nil, !a.hasPrefix("-") {
                rest.append(a)
                trailing = Array(argv[(i + 1)...])
                break
            }
            if let spec = passing, a.hasPrefix("--"), !a.contains("="),
               let option = spec.options.first(where: { "--" + $0.name == a }), option.valueName != nil, i + 1 < argv.count {
                rest.append(a)
                rest.append(argv[i + 1])
                i += 2
                continue
            }
            switch a {
            case "--": sawTerminator = true; rest.append(a)
            case "--json": globals.json = true
            case "--no-input": globals.noInput = true
            case "--help", "-h": globals.help = true
            case "--version": globals.version = true
            case "--db":
                guard i + 1 < argv.count else { throw CLIError.usage("--db needs a value (a database file path)") }
                globals.dbPath = argv[i + 1]
                i += 1
            default:
                if a.hasPrefix("--db=") {
                    globals.dbPath = String(a.dropFirst(5))
                } else if a.hasPrefix("--json=") || a.hasPrefix("--no-input=") || a.hasPrefix("--help=") || a.hasPrefix("--version=") {
                    throw CLIError.usage("\(a.split(separator: "=")[0]) does not take a value")
                } else {
                    rest.append(a)
                    if passing == nil, !a.hasPrefix("-"), !rest.contains(where: { $0.hasPrefix("-") }) {
                        passing = commands.first { $0.passesArgumentsAfterFirstPositional && $0.words == rest }
                    }
                }
            }
            i += 1
        }
        if let db = globals.dbPath, db.isEmpty { throw CLIError.usage("--db needs a non-empty path") }

        // Pass 2: the longest run of leading words that names a command or a group.
        var words: [String] = []
        for a in rest {
            if a.hasPrefix("-") { break }
            let candidate = words + [a]
            if commands.contains(where: { $0.words.starts(with: candidate) }) { words = candidate } else { break }
        }
        let command = commands.first { $0.words == words }

        if command == nil {
            if words.isEmpty {
                if globals.version && rest.isEmpty { return .version }
                if globals.help && rest.isEmpty { return .help(HelpFormatter.programHelp(commands)) }
                if let first = rest.first {
                    if first.hasPrefix("-") { throw CLIError.usage("unknown option '\(first)'", hint: "Run 'hostbook --help' for usage.") }
                    throw CLIError.usage("unknown command '\(first)'", hint: "Run 'hostbook --help' to see the commands.")
                }
                if globals.version { return .version }
                throw CLIError.usage("no command given", hint: "Run 'hostbook --help' to see the commands.")
            }
            // A group such as `keys` without its subcommand.
            let groupHelp = HelpFormatter.groupHelp(words, commands)
            if globals.help { return .help(groupHelp) }
            let next = rest.dropFirst(words.count).first
            if let next, !next.hasPrefix("-") {
                throw CLIError.usage("unknown command '\(next)' for 'hostbook \(words.joined(separator: " "))'",
                                     hint: "Run 'hostbook \(words.joined(separator: " ")) --help' to see its commands.")
            }
            throw CLIError.usage("'hostbook \(words.joined(separator: " "))' needs a subcommand",
                                 hint: "Run 'hostbook \(words.joined(separator: " ")) --help' to see its commands.")
        }
        let spec = command!
        if globals.help { return .help(HelpFormatter.commandHelp(spec)) }

        var parsed = ParsedArguments()
        parsed.commandLine = spec.commandLine
        parsed.trailing = trailing
        let hint = "Run '\(spec.commandLine) --help' for usage."
        var j = words.count
        var onlyPositionals = false
        while j < rest.count {
            let a = rest[j]
            j += 1
            if onlyPositionals || a == "-" || !a.hasPrefix("-") {
                parsed.positionals.append(a)
                continue
            }
            if a == "--" { onlyPositionals = true; continue }
            guard a.hasPrefix("--") else {
                throw CLIError.usage("unknown option '\(a)' for '\(spec.commandLine)'", hint: hint)
            }
            var name = String(a.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let option = spec.options.first(where: { $0.name == name }) else {
                throw CLIError.usage("unknown option '--\(name)' for '\(spec.commandLine)'", hint: hint)
            }
            if option.valueName == nil {
                if inlineValue != nil { throw CLIError.usage("--\(name) does not take a value", hint: hint) }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard j < rest.count else {
                    throw CLIError.usage("--\(name) needs a value (\(option.valueName!))", hint: hint)
                }
                value = rest[j]
                j += 1
            }
            if !option.repeatable, parsed.values[name] != nil {
                throw CLIError.usage("--\(name) was given more than once", hint: hint)
            }
            parsed.values[name, default: []].append(value)
        }
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
