// The command table seen as a tree of words, for the man page and the shell completions:
// each path ("", "keys", "keys import") has the words that may follow it, and a path that
// is a whole command has its spec. Built from CommandTable.all and the parser's global
// options, the same values the parser and --help use, so the three cannot drift.

struct CommandTree {
    struct Child {
        let word: String
        let summary: String
    }

    let commands: [CommandSpec]
    let globalOptions: [OptionSpec]

    init(commands: [CommandSpec] = CommandTable.all, globalOptions: [OptionSpec] = ArgumentParser.globalOptions) {
        self.commands = commands
        self.globalOptions = globalOptions
    }

    /// Every path that leads somewhere, parents before children: "", then "add", "keys",
    /// "keys import", ...
    var paths: [[String]] {
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
    func children(of path: [String]) -> [Child] {
        var out: [Child] = []
        var seen: Set<String> = []
        for c in commands where c.words.count > path.count && Array(c.words.prefix(path.count)) == path {
            let word = c.words[path.count]
            guard seen.insert(word).inserted else { continue }
            let isCommand = c.words.count == path.count + 1
            let group = (path + [word]).joined(separator: " ")
            let summary = isCommand ? c.summary : (HelpFormatter.groups.first { $0.name == group }?.summary ?? "")
            out.append(Child(word: word, summary: summary))
        }
        return out
    }

    func command(at path: [String]) -> CommandSpec? { commands.first { $0.words == path } }

    /// The options that take a value, with what to complete for it.
    func valueOptions(_ options: [OptionSpec]) -> [OptionSpec] { options.filter { $0.valueName != nil } }
}
