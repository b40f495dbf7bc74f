// How `import-tailscale` shows its plan or result: a table and a summary line, or JSON.
import HostStore

enum TailscaleImportOutput {
    /// The report as one JSON object, written in pieces so a 100,000-host import never
    /// builds the whole document in memory. The text is exactly `JSONValue.rendered()`'s.
    static func writeJSON(_ r: TailscaleImportReport, write: (String) -> Void) {
        var out = "{\n"
        let head: [(String, JSONValue)] = [
            ("dry_run", .bool(r.dryRun)),
            ("format", .string(r.format.rawValue)),
            ("added", .int(r.count(.added))),
            ("updated", .int(r.count(.updated))),
            ("unchanged", .int(r.count(.unchanged))),
            ("skipped", .int(r.count(.skipped))),
            ("host_keys_trusted", .int(r.entriesTrusted)),
        ]
        func key(_ k: String) { out += "  "; JSONValue.escape(k, into: &out); out += ": " }
        for (k, v) in head { key(k); out += v.rendered() + ",\n" }
        func array<T>(_ name: String, _ items: [T], last: Bool, _ f: (T) -> JSONValue) {
            key(name)
            if items.isEmpty {
                out += "[]"
            } else {
                out += "[\n"
                for (i, item) in items.enumerated() {
                    out += "    " + f(item).rendered().split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n    ")
                    out += i == items.count - 1 ? "\n" : ",\n"
                    if out.utf8.count >= 1 << 16 { write(out); out = "" }
                }
                out += "  ]"
            }
            out += last ? "\n" : ",\n"
        }
        array("hosts", r.hosts, last: false, host)
        array("rotations", r.rotations, last: false) { k in
            .object([
                ("host", .string(k.host)),
                ("type", .string(k.keyType)),
                ("old_fingerprint", .string(k.oldFingerprint)),
                ("fingerprint", .string(k.newFingerprint)),
            ])
        }
        array("key_problems", r.keyProblems, last: false) { p in
            .object([
                ("host", .string(p.host)),
                ("pattern", p.pattern.isEmpty ? .null : .string(p.pattern)),
                ("type", .string(p.keyType)),
                ("fingerprint", p.fingerprint.isEmpty ? .null : .string(p.fingerprint)),
                ("reason", .string(p.reason)),
            ])
        }
        array("notes", r.notes, last: true) { .string($0) }
        out += "}\n"
        write(out)
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

    static func text(_ r: TailscaleImportReport, color: Bool) -> String {
        var out = ""
        if !r.hosts.isEmpty {
            var table = Table(["ACTION", "NAME", "HOSTNAME", "DETAILS"])
            for h in r.hosts { table.add([h.action.rawValue, h.name, h.hostname, details(h)]) }
            out += table.render(color: color)
        }
        for k in r.rotations {
            out += "Host key rotated: \(k.host) \(k.keyType) \(k.oldFingerprint) -> \(k.newFingerprint)\n"
        }
        let counts = "\(r.count(.added)) added, \(r.count(.updated)) updated, \(r.count(.unchanged)) unchanged, \(r.count(.skipped)) skipped"
        let keys = "\(r.entriesTrusted) host-key \(r.entriesTrusted == 1 ? "entry" : "entries") trusted"
        let rotated = r.rotations.isEmpty ? "" : ", \(r.rotations.count) rotated"
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

    /// One warning line per key that was not trusted.
    static func problemLines(_ r: TailscaleImportReport) -> [String] {
        r.keyProblems.map { p in
            let target = p.pattern.isEmpty ? "" : " for \(p.pattern)"
            let fp = p.fingerprint.isEmpty ? "" : " \(p.fingerprint)"
            return "\(p.host): \(p.keyType)\(fp) not trusted\(target): \(p.reason)"
        }
    }
}
