// The JSON object of a host (`list --json`, `show --json`, `add`/`edit --json`): the fields
// in the contract's order (docs/json.md), then the extra ones.
import HostStore

public enum HostJSON {
    /// `userOmitted`: bundle exports publish the host without its user (`edit --bundle-user
    /// omit`), shown by `show` only.
    public static func host(_ h: Host, userOmitted: Bool = false) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("name", .string(h.name)),
            ("hostname", .string(h.hostname)),
            ("port", .int(h.port)),
            ("user", .optional(h.user)),
            ("tags", .strings(h.tags)),
            ("auth", .string(h.auth.rawValue)),
            ("key", .optional(h.key)),
            ("source", .string(h.source)),
            ("jump", .optional(h.jump)),
            ("note", .optional(h.note)),
            ("source_id", .optional(h.sourceID)),
            ("tailscale", tailscale(h.tailscale)),
            ("created_at", .string(h.createdAt)),
            ("updated_at", .string(h.updatedAt)),
            ("aliases", .strings(h.aliases)),
        ]
        // Only a bundle's host the user changed has it: every other host prints as before.
        if !h.overrides.isEmpty { fields.append(("overrides", overrides(h.overrides))) }
        if userOmitted { fields.append(("bundle_user", .string(BundleUserPublishing.omit.rawValue))) }
        return .object(fields)
    }

    /// `[{"field", "bundle", "local"}]`: the fields the user set on a bundle's host.
    public static func overrides(_ list: [BundleOverride]) -> JSONValue {
        .array(list.map { .object([("field", .string($0.field.rawValue)), ("bundle", .optional($0.bundleValue)), ("local", .optional($0.localValue))]) })
    }

    /// `{"os", "online", "last_seen", "owner"}` for a host imported from Tailscale, else null.
    public static func tailscale(_ t: TailscaleDetails?) -> JSONValue {
        guard let t else { return .null }
        return .object([
            ("os", .optional(t.os)),
            ("online", t.online.map { .bool($0) } ?? .null),
            ("last_seen", .optional(t.lastSeen)),
            ("owner", .optional(t.owner)),
        ])
    }
}
