// Help text for the program, a group of commands, and one command.

enum HelpFormatter {
    static let groups: [(name: String, summary: String)] = [
        ("agent", "The standing ssh-agent for plain ssh, scp, rsync and git"),
        ("agent upstream", "The other agents whose keys the standing agent signs through"),
        ("bundle", "Signed team bundles of hosts, snippets and host keys, shared through git"),
        ("keys", "Import, generate and export private keys"),
        ("keys cert", "Attach and detach a key's OpenSSH certificate"),
        ("ca", "Certificate authorities: sign user and host certificates, revoke them"),
        ("git", "Sign git commits and tags with saved keys, through the agent"),
        ("known-hosts", "Trusted host keys: check, approve, import and export"),
        ("snippets", "Saved command lines"),
        ("vault", "The Secret Service that holds passwords and keys"),
    ]

    static func programHelp(_ commands: [CommandSpec]) -> String {
        var out = """
        hostbook — SSH hosts, keys, trusted host keys and snippets; secrets in the Secret Service.

        Usage: hostbook <command> [options]

        Host commands:

        """
        let top = commands.filter { $0.words.count == 1 }
        let width = max(18, (top.map { $0.words[0].count } + groups.map { $0.name.count }).max() ?? 0) + 2
        for c in top { out += "  " + pad(c.words[0], width) + c.summary + "\n" }
        out += "\nMore commands:\n"
        // Every group of the table, in its order: one missing from `groups` is still listed.
        for name in groupNames(commands) {
            out += "  " + pad(name, width) + (groups.first { $0.name == name }?.summary ?? "") + "\n"
        }
        out += "  " + pad("help [COMMAND...]", width) + "Show the help of a command (the same as COMMAND --help)\n"
        out += "\nGlobal options (before or after the command):\n"
        out += optionLines(ArgumentParser.globalOptions)
        out += "\nRun 'hostbook <command> --help' or 'hostbook help <command>' for a command's options.\n"
        out += "Secrets are never taken from arguments: use --password-stdin, --passphrase-stdin,\n--passphrase-file, or the prompt.\n"
        return out
    }

    /// The first words of the commands that have subcommands (`agent`, `keys`, ...), in table order.
    static func groupNames(_ commands: [CommandSpec]) -> [String] {
        var names: [String] = []
        for c in commands where c.words.count > 1 && !names.contains(c.words[0]) { names.append(c.words[0]) }
        return names
    }

    static func groupHelp(_ words: [String], _ commands: [CommandSpec]) -> String {
        let name = words.joined(separator: " ")
        // The commands right under `words`, and each group under it (`keys cert`) once, in table order.
        var entries: [(word: String, summary: String)] = []
        for c in commands where c.words.count > words.count && Array(c.words.prefix(words.count)) == words {
            let word = c.words[words.count]
            if c.words.count == words.count + 1 {
                entries.append((word, c.summary))
            } else if !entries.contains(where: { $0.word == word }) {
                entries.append((word, groups.first { $0.name == (words + [word]).joined(separator: " ") }?.summary ?? ""))
            }
        }
        var out = groups.first { $0.name == name }.map { "\($0.summary)\n\n" } ?? ""
        out += "Usage: hostbook \(name) <command> [options]\n\nCommands:\n"
        let width = max(12, entries.map(\.word.count).max() ?? 0) + 2
        for e in entries { out += "  " + pad(e.word, width) + e.summary + "\n" }
        out += "\nRun 'hostbook \(name) <command> --help' for a command's options.\n"
        return out
    }

    static func commandHelp(_ spec: CommandSpec) -> String {
        let usage = usageLine(spec)
        var out = "\(spec.summary)\n\nUsage: \(spec.commandLine)\(usage.isEmpty ? "" : " " + usage)\n"
        if let d = spec.discussion { out += "\n\(wrap(d, width: 88))\n" }
        if !spec.positionals.isEmpty {
            out += "\nArguments:\n"
            let width = max(12, spec.positionals.map { $0.name.count }.max() ?? 0) + 2
            for p in spec.positionals { out += "  " + pad(p.name, width) + p.help + "\n" }
        }
        if !spec.options.isEmpty {
            out += "\nOptions:\n" + optionLines(spec.options)
        }
        out += "\nGlobal options:\n" + optionLines(ArgumentParser.globalOptions)
        return out
    }

    static func usageLine(_ spec: CommandSpec) -> String {
        if let u = spec.usage { return u }
        var parts: [String] = []
        for p in spec.positionals { parts.append(p.optional ? "[\(p.name)]" : p.name) }
        for o in spec.options {
            let body = o.valueName.map { "--\(o.name) \($0)" } ?? "--\(o.name)"
            parts.append("[\(body)]" + (o.repeatable ? "..." : ""))
        }
        return parts.joined(separator: " ")
    }

    private static func optionLines(_ options: [OptionSpec]) -> String {
        let labels = options.map { o in o.valueName.map { "\(o.spelled) \($0)" } ?? o.spelled }
        let width = max(18, labels.map(\.count).max() ?? 0) + 2
        var out = ""
        for (o, label) in zip(options, labels) { out += "  " + pad(label, width) + o.help + "\n" }
        return out
    }

    /// Wraps lines longer than `width` at spaces; indented lines (examples) stay as written.
    static func wrap(_ text: String, width: Int) -> String {
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
