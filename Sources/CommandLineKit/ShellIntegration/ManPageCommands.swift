// The part of a man(7) page drawn from the command tree: a subsection for each command
// (usage, summary, help text, arguments, options), then the global options. The program
// writes the rest of its page around it.

public enum ManPageCommands {
    /// `.SS` for each command, then `.SH GLOBAL OPTIONS`.
    public static func roff<Name>(_ tree: CommandTree<Name>) -> String {
        var out = ""
        for spec in tree.commands {
            let commandLine = spec.commandLine(program: tree.program)
            out += ".SS \"\(escape(commandLine))\"\n"
            out += ".B \(escape(commandLine))\n\(escape(HelpFormatter<Name>.usageLine(spec)))\n.PP\n"
            out += escape(spec.summary) + ".\n"
            if let d = spec.discussion { out += paragraphs(d) }
            for p in spec.positionals {
                out += ".TP\n.I \(escape(p.name))\n\(escape(p.help))\(p.optional ? " (optional)" : "")\n"
            }
            for o in spec.options { out += optionItem(o) }
        }
        out += ".SH GLOBAL OPTIONS\nThese are accepted before or after the command words.\n"
        for o in tree.globalOptions { out += optionItem(o) }
        return out
    }

    private static func optionItem<Name>(_ o: OptionSpec<Name>) -> String {
        var label = (o.short.map { "\\fB\\-\(escape(String($0)))\\fR, " } ?? "") + "\\fB\\-\\-\(escape(o.name).replacing("-", with: "\\-"))\\fR"
        if let v = o.valueName { label += " \\fI\(escape(v))\\fR" }
        if o.repeatable { label += " ..." }
        return ".TP\n\(label)\n\(escape(o.help))\n"
    }

    /// Help text as roff: blank lines start paragraphs, indented lines are shown as typed.
    private static func paragraphs(_ text: String) -> String {
        var out = ".PP\n"
        var literal = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(" ") {
                if !literal { out += ".nf\n"; literal = true }
            } else if literal {
                out += ".fi\n"
                literal = false
            }
            out += line.isEmpty ? ".PP\n" : escape(String(line)) + "\n"
        }
        if literal { out += ".fi\n" }
        return out
    }

    /// Text safe in a roff line: backslashes escaped, hyphens of options kept as minus
    /// signs, a leading `.` or `'` (a request) neutralised, non-ASCII spelled out.
    public static func escape(_ s: String) -> String {
        var t = s.replacing("\\", with: "\\e")
        t = t.replacing("--", with: "\\-\\-")
        t = t.replacing(" -", with: " \\-")
        if t.hasPrefix(".") || t.hasPrefix("'") { t = "\\&" + t }
        // Non-ASCII as groff's \[uXXXX], so the page renders without preconv(1).
        guard t.unicodeScalars.contains(where: { $0.value > 0x7F }) else { return t }
        var ascii = ""
        for u in t.unicodeScalars {
            if u.value > 0x7F {
                let hex = String(u.value, radix: 16, uppercase: true)
                ascii += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            } else {
                ascii.unicodeScalars.append(u)
            }
        }
        return ascii
    }
}
