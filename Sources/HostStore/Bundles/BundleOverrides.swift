// A subscriber's own settings on a bundle's host (issue 33): when `edit` changes a field of
// a host a bundle brought (user, key, port, note, tags, aliases), the field is recorded as
// overridden with the bundle's value of it (bundle_overrides); the host row keeps the
// subscriber's value. An update keeps every overridden field as the subscriber set it,
// records the bundle's new value and reports it when it changed (BundleDiff); an edit back
// to the bundle's value, or `edit NAME --reset FIELD`, ends the override. A password the
// subscriber stores stays as before: until the bundle moves the host.
import ImportFormats

/// A field of a bundle host a subscriber may set for themselves.
public enum BundleOverrideField: String, CaseIterable, Sendable {
    case user, key, port, note, tags, aliases
}

/// One overridden field of a host: the bundle's value and the subscriber's (as text: a list
/// is its items joined by ", "; nil: none).
public struct BundleOverride: Sendable, Equatable {
    public let field: BundleOverrideField
    public let bundleValue: String?
    public let localValue: String?

    public init(field: BundleOverrideField, bundleValue: String?, localValue: String?) {
        self.field = field
        self.bundleValue = bundleValue
        self.localValue = localValue
    }
}

extension BundleOverrideField {
    /// The field's value on a stored host, as stored in bundle_overrides.
    func value(of h: Host) -> String? {
        switch self {
        case .user: h.user
        case .key: h.key
        case .port: String(h.port)
        case .note: h.note
        case .tags: Self.list(h.tags)
        case .aliases: Self.list(h.aliases)
        }
    }

    /// The field's value in a bundle's host.
    func value(of h: BundleHost) -> String? {
        switch self {
        case .user: h.user
        case .key: h.key
        case .port: String(h.port)
        case .note: h.note
        case .tags: Self.list(h.tags)
        case .aliases: Self.list(h.aliases)
        }
    }

    /// Sets the field of `h` (a bundle's host) to the stored host's value.
    func keep(_ old: Host, in h: inout BundleHost) {
        switch self {
        case .user: h.user = old.user
        case .key: h.key = old.key
        case .port: h.port = old.port
        case .note: h.note = old.note
        case .tags: h.tags = Array(Set(old.tags)).sorted()
        case .aliases: h.aliases = Array(Set(old.aliases)).sorted()
        }
    }

    /// A list, sorted without regard to case and joined by ", ".
    static func list(_ items: [String]) -> String {
        items.sorted { $0.lowercased().utf8.lexicographicallyPrecedes($1.lowercased().utf8) }.joined(separator: ", ")
    }

    /// The items of a stored list value.
    static func items(_ value: String?) -> [String] {
        guard let value, !value.isEmpty else { return [] }
        return value.split(separator: ",").map { String($0.drop { $0 == " " }) }
    }
}

extension HostDatabase {
    /// The stored bundle values of host `hostID`'s overridden fields.
    func overrideValues(hostID: Int64) throws -> [BundleOverrideField: String?] {
        var out: [BundleOverrideField: String?] = [:]
        for row in try connection.query("SELECT field, bundle_value FROM bundle_overrides WHERE host_id = ?", [.int(hostID)]) {
            if let f = row.text(0).flatMap(BundleOverrideField.init(rawValue:)) { out[f] = .some(row.text(1)) }
        }
        return out
    }

    /// Every overridden field, by host id.
    func overridesByHost() throws -> [Int64: [BundleOverrideField: String?]] {
        var out: [Int64: [BundleOverrideField: String?]] = [:]
        for row in try connection.query("SELECT host_id, field, bundle_value FROM bundle_overrides") {
            if let id = row.int(0), let f = row.text(1).flatMap(BundleOverrideField.init(rawValue:)) { out[id, default: [:]][f] = .some(row.text(2)) }
        }
        return out
    }

    /// The overrides of `h` (its bundle values from `values`), in field order.
    static func overrides(of h: Host, _ values: [BundleOverrideField: String?]) -> [BundleOverride] {
        BundleOverrideField.allCases.compactMap { f in
            guard let bundle = values[f] else { return nil }
            return BundleOverride(field: f, bundleValue: bundle, localValue: f.value(of: h))
        }
    }

    /// After `edit` changed bundle host `old` into `new` (inside its transaction): each field
    /// that changed is recorded as overridden with the bundle's value (the value before,
    /// unless overridden already); one set back to the bundle's value is no longer.
    func recordOverrides(old: Host, new: Host) throws {
        guard old.source.hasPrefix("bundle:") else { return }
        let existing = try overrideValues(hostID: old.id)
        for f in BundleOverrideField.allCases {
            let after = f.value(of: new)
            if let bundle = existing[f] {
                // Back to the bundle's value (a key the bundle names that is not here: none).
                var missingKey = false
                if f == .key, after == nil, let named = bundle {
                    missingKey = try connection.query("SELECT id FROM keys WHERE name = ? COLLATE NOCASE", [.text(named)]).first == nil
                }
                if after == bundle || missingKey { _ = try connection.run("DELETE FROM bundle_overrides WHERE host_id = ? AND field = ?", [.int(old.id), .text(f.rawValue)]) }
                continue
            }
            let before = f.value(of: old)
            guard before != after else { continue }
            _ = try connection.run("INSERT INTO bundle_overrides (host_id, field, bundle_value) VALUES (?, ?, ?)",
                                   [.int(old.id), .text(f.rawValue), before.map { .text($0) } ?? .null])
        }
    }

    /// The changes that return `fields` of host `name` to the bundle's values (`edit
    /// --reset`). A field that is not overridden is `.rejected`; a key the bundle names that
    /// this database lacks is cleared.
    public func resetChanges(host name: String, fields: [BundleOverrideField]) throws -> HostChanges {
        try read {
            guard let h = try findHost(name) else { throw noHost(name) }
            let values = try overrideValues(hostID: h.id)
            var c = HostChanges()
            for f in fields {
                guard let bundle = values[f] else {
                    throw HostStoreError.rejected(h.source.hasPrefix("bundle:") ? "host '\(h.name)' has no override of its \(f.rawValue)"
                                                                                : "host '\(h.name)' did not come from a bundle: it has no bundle value to return to")
                }
                switch f {
                case .user: if let bundle { c.user = bundle } else { c.clearUser = true }
                case .key:
                    if let bundle, try connection.query("SELECT id FROM keys WHERE name = ? COLLATE NOCASE", [.text(bundle)]).first != nil {
                        c.key = .set(bundle)
                    } else {
                        c.key = .clear
                    }
                case .port: c.port = bundle.flatMap { Int($0) } ?? 22
                case .note: c.note = bundle ?? ""
                case .tags:
                    let want = BundleOverrideField.items(bundle)
                    c.addTags = want.filter { t in !h.tags.contains { $0.lowercased() == t.lowercased() } }
                    c.removeTags = h.tags.filter { t in !want.contains { $0.lowercased() == t.lowercased() } }
                case .aliases:
                    let want = BundleOverrideField.items(bundle)
                    c.addAliases = want.filter { a in !h.aliases.contains { $0.lowercased() == a.lowercased() } }
                    c.removeAliases = h.aliases.filter { a in !want.contains { $0.lowercased() == a.lowercased() } }
                }
            }
            return c
        }
    }

    /// The overrides of host `name` (empty for a host no bundle brought).
    public func overrides(ofHost name: String) throws -> [BundleOverride] {
        try read {
            guard let h = try findHost(name), h.source.hasPrefix("bundle:") else { return [] }
            return Self.overrides(of: h, try overrideValues(hostID: h.id))
        }
    }
}
