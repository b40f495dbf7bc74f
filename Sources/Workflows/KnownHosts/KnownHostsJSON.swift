// The JSON objects of the known-hosts commands, in the one vocabulary every `--json` uses
// (docs/json.md): `created_at` for when a row was written, `null` for what is
// absent (an entry without a marker, a pattern entry's port).
import HostStore

public enum KnownHostsJSON {
    /// One stored entry: `known-hosts list`, the `entries` of `check`, the `removed` of `remove`.
    public static func entry(_ row: KnownHostRow) -> JSONValue {
        .object([
            ("host", .string(row.pattern)),
            ("port", .optional(row.displayPort)),
            ("type", .string(row.keyType)),
            ("fingerprint", .string(row.fingerprint)),
            ("marker", row.marker == .none ? .null : .string(row.marker.rawValue)),
            ("source", .string(row.source)),
            ("created_at", .string(row.firstSeen)),
        ])
    }

    /// One audit event: `known-hosts history`.
    public static func event(_ e: HostKeyEvent) -> JSONValue {
        .object([
            ("created_at", .string(e.at)),
            ("event", .string(e.event)),
            ("host", .string(e.host)),
            ("port", .optional(e.displayPort)),
            ("type", .optional(e.keyType)),
            ("fingerprint", .optional(e.fingerprint)),
            ("old_fingerprint", .optional(e.oldFingerprint)),
            ("source", .string(e.source)),
        ])
    }
}
