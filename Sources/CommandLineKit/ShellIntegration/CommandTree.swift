// The command table seen as a tree of words, for the man page and the shell completions:
// each path ("", "keys", "keys import") has the words that may follow it, and a path that
// is a whole command has its declaration. Built from the values the parser and help use,
// so the three cannot drift; with what the completion scripts need besides: what an
// option's value takes, and the program's hidden command that prints names of a kind.

public struct CommandTree<Name: OptionNaming>: Sendable {
    public struct Child: Sendable {
        public let word: String
        public let summary: String
    }

    public let help: HelpFormatter<Name>
    public let commands: [CommandDeclaration<Name>]
    /// What a shell offers for an option's value.
    public let valueKind: @Sendable (OptionSpec<Name>) -> CompletionKind
    /// The hidden command word that prints the names of a kind, one a line:
    /// `PROGRAM COMPLETER KIND [--CONTEXT VALUE] -- PREFIX`.
    public let completer: String
    /// The global option whose value on the line the completer is given too (the file the
    /// names come from, say).
    public let contextOption: String
    /// The start of the completion scripts' shell variables (`_hb` for `_hb_words`).
    public let variablePrefix: String

    public init(help: HelpFormatter<Name>, commands: [CommandDeclaration<Name>],
                valueKind: @escaping @Sendable (OptionSpec<Name>) -> CompletionKind,
                completer: String, contextOption: String, variablePrefix: String) {
        self.help = help
        self.commands = commands
        self.valueKind = valueKind
        self.completer = completer
        self.contextOption = contextOption
        self.variablePrefix = variablePrefix
    }

    public var program: String { help.program }
    public var globalOptions: [OptionSpec<Name>] { help.globalOptions }

    /// Every path that leads somewhere, parents before children: "", then "add", "keys",
    /// "keys import", ...
    public var paths: [[String]] {
        var out: [[String]] = [[]]
        var seen: Set<[String]> = [[]]
        for c in commands {
            for n in 1...c.words.count {
                let p = Array(c.words.prefix(n))
                if seen.insert(p).inserted { out.append(p) }
            }
        }
        return out
    }

    /// The words that may follow `path`, in table order, each with a one-line summary.
    public func children(of path: [String]) -> [Child] {
        var out: [Child] = []
        var seen: Set<String> = []
        for c in commands where c.words.count > path.count && Array(c.words.prefix(path.count)) == path {
            let word = c.words[path.count]
            guard seen.insert(word).inserted else { continue }
            let isCommand = c.words.count == path.count + 1
            let summary = isCommand ? c.summary : help.summary(ofGroup: (path + [word]).joined(separator: " "))
            out.append(Child(word: word, summary: summary))
        }
        return out
    }

    public func command(at path: [String]) -> CommandDeclaration<Name>? { commands.first { $0.words == path } }

    /// The options that take a value.
    public func valueOptions(_ options: [OptionSpec<Name>]) -> [OptionSpec<Name>] { options.filter { $0.valueName != nil } }

    /// The kinds whose names the completer prints, sorted: every kind a positional or an
    /// option's value takes but `nothing` and `files`.
    public var namedKinds: [String] {
        var kinds: Set<String> = []
        for c in commands {
            for p in c.positionals { kinds.insert(p.completes.rawValue) }
            for o in c.options { kinds.insert(valueKind(o).rawValue) }
        }
        for o in globalOptions { kinds.insert(valueKind(o).rawValue) }
        return kinds.subtracting([CompletionKind.nothing.rawValue, CompletionKind.files.rawValue]).sorted()
    }
}
