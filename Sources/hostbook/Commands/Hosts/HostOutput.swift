// How hosts are shown: the JSON object of `list --json` / `show --json` (fields in the
// contract's order, then the extra ones) and the aligned text of `show`.
import HostStore

enum HostOutput {
    /// `userOmitted`: bundle exports publish the host without its user (`edit --bundle-user
    /// omit`), shown by `show` only.
    static func json(_ h: Host, userOmitted: Bool = false) -> JSONValue {
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
    static func overrides(_ list: [BundleOverride]) -> JSONValue {
        .array(list.map { .object([("field", .string($0.field.rawValue)), ("bundle", .optional($0.bundleValue)), ("local", .optional($0.localValue))]) })
    }

    /// `{"os", "online", "last_seen", "owner"}` for a host imported from Tailscale, else null.
    static func tailscale(_ t: TailscaleDetails?) -> JSONValue {
        guard let t else { return .null }
        return .object([
            ("os", .optional(t.os)),
            ("online", t.online.map { .bool($0) } ?? .null),
            ("last_seen", .optional(t.lastSeen)),
            ("owner", .optional(t.owner)),
        ])
    }

    /// Every value comes from the database (an import, a user's input) and is escaped.
    static func text(_ h: Host, userOmitted: Bool = false) -> TerminalText {
        var fields: [(String, String)] = [("name", h.name)]
        if !h.aliases.isEmpty { fields.append(("aliases", h.aliases.joined(separator: ", "))) }
        fields += [
            ("hostname", h.hostname),
            ("port", String(h.port)),
            ("user", h.user ?? "-"),
            ("auth", h.auth.rawValue),
            ("key", h.key ?? "-"),
            ("jump", h.jump ?? "-"),
            ("tags", h.tags.isEmpty ? "-" : h.tags.joined(separator: ", ")),
            ("note", h.note ?? "-"),
            ("source", h.sourceID.map { "\(h.source) (\($0))" } ?? h.source),
        ]
        if let t = h.tailscale {
            fields += [
                ("os", t.os ?? "-"),
                ("online", t.online.map { $0 ? "yes" : "no" } ?? "-"),
                ("last seen", t.lastSeen ?? (t.online == true ? "now (online)" : "-")),
                ("owner", t.owner ?? "-"),
            ]
        }
        for o in h.overrides {
            fields.append(("\(o.field.rawValue) (yours)", "\(o.localValue ?? "-"); the bundle's: \(o.bundleValue ?? "-") (edit --reset \(o.field.rawValue))"))
        }
        if userOmitted { fields.append(("bundle user", "omitted: bundle exports publish no user (edit --bundle-user publish)")) }
        fields += [("created", h.createdAt), ("updated", h.updatedAt)]
        let width = fields.map { $0.0.count }.max()! + 2
        var out: TerminalText = ""
        for (k, v) in fields { out += "\(k):\(String(repeating: " ", count: width - k.count - 1))\(v)\n" }
        return out
    }

    /// `user@hostname:port`, for one-line messages.
    static func target(_ h: Host) -> String {
        (h.user.map { $0 + "@" } ?? "") + h.hostname + (h.port == 22 ? "" : ":\(h.port)")
    }
}
