// `hostbook list --json` streamed from the database into bytes: the same text as
// `JSONValue.array(hosts.map { HostJSON.host($0) }).rendered()`, without building either
// (benchmarks/README.md, "hosts": 10,000 hosts well under 50 ms).
import HostStore

public enum HostListJSON {
    /// Writes the JSON array of every host `forEachHost` yields, and a newline, to `fd`.
    public static func write(_ db: HostDatabase?, tags: [String], source: String?, to fd: Int32) throws {
        var w = JSONBytes(capacity: (1 << 16) + 8192)
        var count = 0
        try db?.forEachHost(tags: tags, source: source) { row in
            w.raw(count == 0 ? "[\n  {\n" : ",\n  {\n")
            count += 1
            field(&w, "name", row, .name, comma: true)
            field(&w, "hostname", row, .hostname, comma: true)
            w.raw("    \"port\": ")
            w.int(row.port)
            w.raw(",\n")
            field(&w, "user", row, .user, comma: true)
            if row.tags.isEmpty {
                w.raw("    \"tags\": [],\n")
            } else {
                w.raw("    \"tags\": [\n")
                for (i, t) in row.tags.enumerated() {
                    w.raw("      ")
                    w.string(t)
                    w.raw(i == row.tags.count - 1 ? "\n" : ",\n")
                }
                w.raw("    ],\n")
            }
            field(&w, "auth", row, .auth, comma: true)
            field(&w, "key", row, .key, comma: true)
            field(&w, "source", row, .source, comma: true)
            field(&w, "jump", row, .jump, comma: true)
            field(&w, "note", row, .note, comma: true)
            field(&w, "source_id", row, .sourceID, comma: true)
            w.raw("    \"tailscale\": ")
            HostJSON.tailscale(row.tailscale).write(into: &w, indent: 2)
            w.raw(",\n")
            field(&w, "created_at", row, .createdAt, comma: true)
            field(&w, "updated_at", row, .updatedAt, comma: true)
            if row.aliases.isEmpty {
                w.raw("    \"aliases\": []")
            } else {
                w.raw("    \"aliases\": [\n")
                for (i, a) in row.aliases.enumerated() {
                    w.raw("      ")
                    w.string(a)
                    w.raw(i == row.aliases.count - 1 ? "\n" : ",\n")
                }
                w.raw("    ]")
            }
            // Only a bundle's host the user changed has it (HostJSON.host).
            if !row.overrides.isEmpty {
                w.raw(",\n    \"overrides\": ")
                HostJSON.overrides(row.overrides).write(into: &w, indent: 2)
            }
            w.raw("\n")
            w.raw("  }")
            w.flush(to: fd)
        }
        w.raw(count == 0 ? "[]\n" : "\n]\n")
        w.writeAll(to: fd)
    }

    private static func field(_ w: inout JSONBytes, _ name: StaticString, _ row: HostRow, _ f: HostField, comma: Bool) {
        w.raw("    \"")
        w.raw(name)
        w.raw("\": ")
        row.withUTF8(f) { w.string(utf8: $0) }
        w.raw(comma ? ",\n" : "\n")
    }
}
