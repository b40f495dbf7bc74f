// `import-tailscale --json`: the plan or result as one JSON object (docs/json.md).
import HostStore
import ImportFormats

public enum TailscaleImportJSON {
    /// The report as one JSON object, written in pieces so a 100,000-host import never
    /// builds the whole document in memory. The text is exactly `JSONValue.rendered()`'s.
    /// `reasons`: each key problem's reason and `notes` each note, as the program words them.
    public static func write(_ r: TailscaleImportReport, reasons: [String], notes: [String], write: @escaping (String) -> Void) {
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
        json.array("key_problems", Array(zip(r.keyProblems, reasons))) { p, reason in
            .object([
                ("host", .string(p.host)),
                ("pattern", p.pattern.isEmpty ? .null : .string(p.pattern)),
                ("type", .string(p.keyType)),
                ("fingerprint", p.fingerprint.isEmpty ? .null : .string(p.fingerprint)),
                ("reason", .string(reason)),
            ])
        }
        json.array("notes", notes) { .string($0) }
        json.finish()
    }

    public static func host(_ h: TailscaleHostResult) -> JSONValue {
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
}
