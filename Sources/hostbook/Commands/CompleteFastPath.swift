// `hostbook __complete KIND [--db PATH] [--] [PREFIX]`: the saved names completion scripts
// offer, one per line. Hidden (not in the command table, so not in --help), and handled
// before the parser: one read-only SELECT (NameListing), never creating, migrating or
// locking the database; a missing or unusable database prints nothing. Always exit 0.
//
// `hostbook __complete commands` prints every command of the table, one line each:
// `words<TAB>--opt --opt<TAB>kind kind` (the options, then what each positional completes),
// the global options last as `-<TAB>--db ...`, for tests that hold the man page and the
// completions to the table.
import CommandLineKit
import HostStore

enum CompleteFastPath {
    static let word = "__complete"

    static func run(_ argv: [String], environment: [String: String]) -> Int32 {
        var rest = argv.dropFirst()
        guard let kind = rest.popFirst() else { return ExitCode.usage.rawValue }
        var globals = GlobalOptions()
        var prefix = ""
        while let a = rest.popFirst() {
            if a == "--db", let p = rest.popFirst() { globals.dbPath = p.isEmpty ? nil : p }
            else if a.hasPrefix("--db=") { globals.dbPath = String(a.dropFirst(5)) }
            else if a == "--" { prefix = rest.popFirst() ?? ""; break }
            else { prefix = a }
        }
        if kind == "commands" {
            Output.write(.raw(commandListing()), to: 1)
            return 0
        }
        guard let listing = NameListing.Kind(rawValue: kind) else { return 0 }
        let path = Invocation(args: ParsedArguments(), globals: globals, environment: environment).databasePath
        let names = NameListing.names(listing, databasePath: path, prefix: prefix)
        // A name is one line: escaped like any text from the database.
        if !names.isEmpty { Output.write(names.map { name -> TerminalText in "\(name)\n" }.joined(), to: 1) }
        return 0
    }

    static func commandListing(_ tree: CommandTree<OptionName> = ShellIntegrationCommands.tree) -> String {
        var out = ""
        for c in tree.commands {
            out += c.words.joined(separator: " ") + "\t" + c.options.map { "--" + $0.name }.joined(separator: " ")
                + "\t" + c.positionals.map(\.completes.rawValue).joined(separator: " ") + "\n"
        }
        out += "-\t" + tree.globalOptions.map { "--" + $0.name }.joined(separator: " ") + "\n"
        return out
    }
}
