// How `import-tailscale` shows its plan or result: a table and a summary line (the JSON
// document is Workflows' TailscaleImportJSON).
import CommandLineKit
import HostStore
import ImportFormats

enum TailscaleImportOutput {
    /// Names, hosts, tags and reasons come from the Tailscale document: escaped as cells
    /// (Table) or by the interpolation.
    static func text(_ r: TailscaleImportReport, color: Bool) -> TerminalText {
        var out: TerminalText = ""
        if !r.hosts.isEmpty {
            var table = Table(["ACTION", "NAME", "HOSTNAME", "DETAILS"])
            for h in r.hosts { table.add([h.action.rawValue, h.name, h.hostname, details(h)]) }
            out += table.render(color: color)
        }
        for k in r.rotations {
            out += "Host key rotated: \(k.host) \(k.keyType) \(k.oldFingerprint) -> \(k.newFingerprint)\n"
        }
        let counts: TerminalText = "\(r.count(.added)) added, \(r.count(.updated)) updated, \(r.count(.unchanged)) unchanged, \(r.count(.skipped)) skipped"
        let keys: TerminalText = "\(r.entriesTrusted) host-key \(r.entriesTrusted == 1 ? "entry" : "entries") trusted"
        let rotated: TerminalText = r.rotations.isEmpty ? "" : ", \(r.rotations.count) rotated"
        out += (r.dryRun ? "Dry run, nothing written: " : "") + counts + "; " + keys + rotated + ".\n"
        return out
    }

    static func details(_ h: TailscaleHostResult) -> String {
        if h.action == .skipped { return h.reason ?? "" }
        var parts: [String] = []
        if !h.os.isEmpty { parts.append(h.os) }
        if let online = h.online { parts.append(online ? "online" : "offline") }
        if !h.tags.isEmpty { parts.append(h.tags.joined(separator: " ")) }
        if h.hostKeys > 0 { parts.append("\(h.hostKeys) host key\(h.hostKeys == 1 ? "" : "s")") }
        if let reason = h.reason { parts.append(reason) }
        return parts.joined(separator: ", ")
    }

    /// One warning line per key that was not trusted, and one per name no key was trusted
    /// for (no key type: the name itself was refused).
    static func problemLines(_ r: TailscaleImportReport) -> [String] {
        r.keyProblems.map { p in
            let target = p.pattern.isEmpty ? "" : " for \(p.pattern)"
            let fp = p.fingerprint.isEmpty ? "" : " \(p.fingerprint)"
            let key = p.keyType.isEmpty ? "host keys" : p.keyType
            return "\(p.host): \(key)\(fp) not trusted\(target): \(p.reasonLine)"
        }
    }
}
