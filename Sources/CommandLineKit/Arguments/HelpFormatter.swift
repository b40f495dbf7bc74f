// Help text for the program, a group of commands, and one command, laid out from the
// command table: the program gives its name, its global options, a line for each group of
// commands, and the words that open and close its own help.

public struct HelpFormatter<Name: OptionNaming>: Sendable {
    public struct Group: Sendable {
        public let name: String
        public let summary: String
        public init(_ name: String, _ summary: String) {
            self.name = name
            self.summary = summary
        }
    }

    public let program: String
    public let globalOptions: [OptionSpec<Name>]
    /// The groups of commands (`keys`, `keys cert`) and a line saying what each is for.
    public let groups: [Group]
    /// The program's help down to the heading of its top-level commands.
    public let introduction: String
    /// What the program's help says last.
    public let closing: String

    public init(program: String, globalOptions: [OptionSpec<Name>], groups: [Group], introduction: String, closing: String) {
        self.program = program
        self.globalOptions = globalOptions
        self.groups = groups
        self.introduction = introduction
        self.closing = closing
    }

    public func programHelp(_ commands: [CommandDeclaration<Name>]) -> String {
        var out = introduction
        let top = commands.filter { $0.words.count == 1 }
        let width = max(18, (top.map { $0.words[0].count } + groups.map { $0.name.count }).max() ?? 0) + 2
        for c in top { out += "  " + Self.pad(c.words[0], width) + c.summary + "\n" }
        out += "\nMore commands:\n"
        // Every group of the table, in its order: one missing from `groups` is still listed.
        for name in Self.groupNames(commands) {
            out += "  " + Self.pad(name, width) + summary(ofGroup: name) + "\n"
        }
        out += "  " + Self.pad("help [COMMAND...]", width) + "Show the help of a command (the same as COMMAND --help)\n"
        out += "\nGlobal options (before or after the command):\n"
        out += Self.optionLines(globalOptions)
        out += "\nRun '\(program) <command> --help' or '\(program) help <command>' for a command's options.\n"
        return out + closing
    }

    /// A group's line of help ("" for one the program does not describe).
    public func summary(ofGroup name: String) -> String { groups.first { $0.name == name }?.summary ?? "" }

    /// The first words of the commands that have subcommands (`agent`, `keys`, ...), in table order.
    public static func groupNames(_ commands: [CommandDeclaration<Name>]) -> [String] {
        var names: [String] = []
        for c in commands where c.words.count > 1 && !names.contains(c.words[0]) { names.append(c.words[0]) }
        return names
    }

    public func groupHelp(_ words: [String], _ commands: [CommandDeclaration<Name>]) -> String {
        let name = words.joined(separator: " ")
        // The commands right under `words`, and each group under it (`keys cert`) once, in table order.
        var entries: [(word: String, summary: String)] = []
        for c in commands where c.words.count > words.count && Array(c.words.prefix(words.count)) == words {
            let word = c.words[words.count]
            if c.words.count == words.count + 1 {
                entries.append((word, c.summary))
            } else if !entries.contains(where: { $0.word == word }) {
                entries.append((word, summary(ofGroup: (words + [word]).joined(separator: " "))))
            }
        }
        var out = groups.first { $0.name == name }.map { "\($0.summary)\n\n" } ?? ""
        out += "Usage: \(program) \(name) <command> [options]\n\nCommands:\n"
        let width = max(12, entries.map(\.word.count).max() ?? 0) + 2
        for e in entries { out += "  " + Self.pad(e.word, width) + e.summary + "\n" }
        out += "\nRun '\(program) \(name) <command> --help' for a command's options.\n"
        return out
    }

    public func commandHelp(_ command: CommandDeclaration<Name>) -> String {
        let usage = Self.usageLine(command)
        var out = "\(command.summary)\n\nUsage: \(command.commandLine(program: program))\(usage.isEmpty ? "" : " " + usage)\n"
        if let d = command.discussion { out += "\n\(Self.wrap(d, width: 88))\n" }
        if !command.positionals.isEmpty {
            out += "\nArguments:\n"
            let width = max(12, command.positionals.map { $0.name.count }.max() ?? 0) + 2
            for p in command.positionals { out += "  " + Self.pad(p.name, width) + p.help + "\n" }
        }
        if !command.options.isEmpty {
            out += "\nOptions:\n" + Self.optionLines(command.options)
        }
        out += "\nGlobal options:\n" + Self.optionLines(globalOptions)
        return out
    }

    public static func usageLine(_ command: CommandDeclaration<Name>) -> String {
        if let u = command.usage { return u }
        var parts: [String] = []
        for p in command.positionals { parts.append(p.optional ? "[\(p.name)]" : p.name) }
        for o in command.options {
            let body = o.valueName.map { "--\(o.name) \($0)" } ?? "--\(o.name)"
            parts.append("[\(body)]" + (o.repeatable ? "..." : ""))
        }
        return parts.joined(separator: " ")
    }

    private static func optionLines(_ options: [OptionSpec<Name>]) -> String {
        let labels = options.map { o in o.valueName.map { "\(o.spelled) \($0)" } ?? o.spelled }
        let width = max(18, labels.map(\.count).max() ?? 0) + 2
        var out = ""
        for (o, label) in zip(options, labels) { out += "  " + pad(label, width) + o.help + "\n" }
        return out
    }

    /// Wraps lines longer than `width` at spaces; indented lines (examples) stay as written.
    public static func wrap(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.count > width, !line.hasPrefix(" ") else { return String(line) }
            var lines: [String] = []
            var current = ""
            for word in line.split(separator: " ") {
                if !current.isEmpty && current.count + 1 + word.count > width {
                    lines.append(current)
                    current = ""
                }
                current += current.isEmpty ? String(word) : " " + word
            }
            if !current.isEmpty { lines.append(current) }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    private static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
}
