// Writing a bundle's canonical text (the layout is described in BundleText.swift).

extension BundleText {
    /// The canonical text of `document`: hosts, snippets, tags, aliases and host-key lines
    /// sorted by their UTF-8 bytes (tags, aliases and key lines once each), fields in their
    /// fixed order. A string holding a control character is written with an escape that
    /// `parse` refuses: such a value cannot travel in a bundle.
    public static func render(_ document: BundleDocument) -> [UInt8] {
        var out: [UInt8] = []
        func line(_ s: String) {
            out.append(contentsOf: s.utf8)
            out.append(0x0A)
        }
        func quoted(_ s: String) -> String { "\"" + escaped(s) + "\"" }
        func sortedUnique(_ items: [String]) -> [String] {
            var seen = Set<String>()
            return items.filter { seen.insert($0).inserted }.sorted(by: precedes)
        }

        line(header)
        line("name " + quoted(document.name))
        line("serial \(document.serial)")
        for host in document.hosts.sorted(by: { precedes($0.name, $1.name) }) {
            line("")
            line("host " + quoted(host.name))
            line("  hostname " + quoted(host.hostname))
            line("  port \(host.port)")
            if let user = host.user { line("  user " + quoted(user)) }
            for tag in sortedUnique(host.tags) { line("  tag " + quoted(tag)) }
            for alias in sortedUnique(host.aliases) { line("  alias " + quoted(alias)) }
            if let jump = host.jump { line("  jump " + quoted(jump)) }
            if let note = host.note { line("  note " + quoted(note)) }
            if let key = host.key { line("  key " + quoted(key)) }
        }
        for snippet in document.snippets.sorted(by: { precedes($0.name, $1.name) }) {
            line("")
            line("snippet " + quoted(snippet.name))
            line("  command " + quoted(snippet.command))
            if let description = snippet.description { line("  description " + quoted(description)) }
        }
        let keys = sortedUnique(document.hostKeys)
        if !keys.isEmpty { line("") }
        for key in keys { line("host-key " + quoted(key)) }
        let certificates = sortedUnique(document.certificates)
        if !certificates.isEmpty { line("") }
        for certificate in certificates { line("certificate " + quoted(certificate)) }
        if let krl = document.revocationList {
            line("")
            line("krl " + quoted(krl))
        }
        return out
    }
}
