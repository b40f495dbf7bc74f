// How hosts are shown: the aligned text of `show`, and a host in one-line messages (the
// JSON object of `list --json` / `show --json` is Workflows' HostJSON).
import CommandLineKit
import HostStore

enum HostOutput {
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
