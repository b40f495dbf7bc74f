// How `import-ssh-config` shows its plan or result: a table, what was not imported, notes
// and a summary line; or one JSON object. Text from the file is escaped wherever printed.
import CommandLineKit
import HostStore
import KeyFormats

enum SSHConfigImportOutput {
    static func q(_ s: String) -> String { PrintableText.quoted(s) }

    static func text(_ r: SSHConfigImportReport, color: Bool) -> TerminalText {
        var out: TerminalText = ""
        if !r.hosts.isEmpty {
            var table = Table(["ACTION", "NAME", "HOSTNAME", "DETAILS"])
            for h in r.hosts { table.add([h.action.rawValue, h.name, h.hostname, details(h)]) }
            out += table.render(color: color)
        }
        let groups = notImportedGroups(r)
        if !groups.isEmpty {
            out += "\nNot imported (hostbook cannot represent these):\n"
            for g in groups { out += "  \(names(g.hosts)): \(g.line)\n" }
        }
        if !r.notes.isEmpty {
            out += "\nNotes:\n"
            for n in r.notes { out += "  \(n.line)\n" }
        }
        let counts: TerminalText = "\(r.count(.added)) added, \(r.count(.updated)) updated, \(r.count(.unchanged)) unchanged, \(r.count(.skipped)) skipped"
        out += (out.isEmpty ? "" : "\n") + (r.dryRun ? "Dry run, nothing written: " : "") + counts + ".\n"
        return out
    }

    /// Each distinct line once, with the hosts it is about, in the order first seen (a
    /// `Host *` option is one line for every host, not one per host).
    static func notImportedGroups(_ r: SSHConfigImportReport) -> [(line: String, hosts: [String])] {
        var index: [String: Int] = [:]
        var groups: [(line: String, hosts: [String])] = []
        for h in r.hosts {
            for line in h.notImported.map(\.line) {
                if let i = index[line] {
                    groups[i].hosts.append(h.name)
                } else {
                    index[line] = groups.count
                    groups.append((line, [h.name]))
                }
            }
        }
        return groups
    }

    /// Up to five names, then how many more.
    static func names(_ hosts: [String]) -> String {
        let shown = hosts.prefix(5).map(q).joined(separator: ", ")
        return hosts.count > 5 ? "\(shown) and \(hosts.count - 5) more" : shown
    }

    static func details(_ h: SSHConfigHostResult) -> String {
        if h.action == .skipped { return q(reason(h) ?? "") }
        var parts: [String] = []
        if h.port != 22 { parts.append("port \(h.port)") }
        if let user = h.user { parts.append("user \(q(user))") }
        if let jump = h.jump { parts.append("via \(q(jump))") }
        if let key = h.key { parts.append("key \(q(key))") }
        if h.name != h.alias { parts.append("alias \(q(h.alias))") }
        if !h.aliases.isEmpty { parts.append("also \(h.aliases.map(q).joined(separator: ", "))") }
        return parts.joined(separator: ", ")
    }

    /// Why the host was skipped, with the fix that is a hostbook command.
    static func reason(_ h: SSHConfigHostResult) -> String? {
        h.reason.map { $0 + (h.reasonRemedy.map(ImportNote.words) ?? "") }
    }

    static func host(_ h: SSHConfigHostResult) -> JSONValue {
        .object([
            ("name", .string(h.name)),
            ("alias", .string(h.alias)),
            ("hostname", .string(h.hostname)),
            ("port", .int(h.port)),
            ("user", .optional(h.user)),
            ("jump", .optional(h.jump)),
            ("key", .optional(h.key)),
            ("action", .string(h.action.rawValue)),
            ("reason", .optional(reason(h))),
            ("source_file", .string(h.sourceFile)),
            ("source_line", .int(h.sourceLine)),
            ("not_imported", .strings(h.notImported.map(\.line))),
            ("aliases", .strings(h.aliases)),
        ])
    }

    /// The report as one JSON object, written in pieces (the text equals JSONValue's rendering).
    static func writeJSON(_ r: SSHConfigImportReport, file: String, write: @escaping (String) -> Void) {
        var json = StreamedJSONObject(write: write)
        json.field("dry_run", .bool(r.dryRun))
        json.field("file", .string(file))
        json.field("added", .int(r.count(.added)))
        json.field("updated", .int(r.count(.updated)))
        json.field("unchanged", .int(r.count(.unchanged)))
        json.field("skipped", .int(r.count(.skipped)))
        json.array("hosts", r.hosts, host)
        json.array("notes", r.notes) { .string($0.line) }
        json.finish()
    }
}
