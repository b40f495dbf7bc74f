// How `import-tailscale` shows its plan or result: a table and a summary line, or JSON.
import HostStore
import ImportFormats

enum TailscaleImportOutput {
    /// The report as one JSON object, written in pieces so a 100,000-host import never
    /// builds the whole document in memory. The text is exactly `JSONValue.rendered()`'s.
    static func writeJSON(_ r: TailscaleImportReport, write: @escaping (String) -> Void) {
        var json = StreamedJSONObject(write: write)
        json.field("dry_run", .bool(r.dryRun))
        json.field("format", .string(r.format.rawValue))
        json.field("added", .int(r.count(.added)))
        json.field("updated", .int(r.count(.updated)))
        json.field("unchanged", .int(r.count(.unchanged)))
        json.field("skipped", .int(r.count(.skipped)))
        json.field("host_keys_trusted", .int(r.entriesTrusted))
        json.array("hosts", r.hosts, host)
        json.array("rotations", r.rotations) { k in
            .object([
                ("host", .string(k.host)),
                ("type", .string(k.keyType)),
                ("old_fingerprint", .string(k.oldFingerprint)),
                ("fingerprint", .string(k.newFingerprint)),
            ])
        }
        json.array("key_problems", r.keyProblems) { p in
            .object([
                ("host", .string(p.host)),
                ("pattern", p.pattern.isEmpty ? .null : .string(p.pattern)),
                ("type", .string(p.keyType)),
                ("fingerprint", p.fingerprint.isEmpty ? .null : .string(p.fingerprint)),
                ("reason", .string(p.reasonLine)),
            ])
        }
        json.array("notes", r.notes) { .string($0.line) }
        json.finish()
    }

    static func host(_ h: TailscaleHostResult) -> JSONValue {
        .object([
            ("name", .string(h.name)),
            ("hostname", .string(h.hostname)),
            ("action", .string(h.action.rawValue)),
            ("reason", .optional(h.reason)),
            ("node_id", .string(h.nodeID)),
            ("tags", .strings(h.tags)),
            ("os", h.os.isEmpty ? .null : .string(h.os)),
            ("online", h.online.map { .bool($0) } ?? .null),
            ("last_seen", .optional(h.lastSeen.map { RFC3339.utc($0) ?? $0 })),
            ("owner", .optional(h.owner)),
            ("host_keys", .int(h.hostKeys)),
        ])
    }

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
