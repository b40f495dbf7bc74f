// Which devices of a document a Tailscale import is about, as data from the command line
// (--all, --only NAME,..., --tag, --online, --include-skipped), so that one place decides
// what becomes of each device: TailscaleImportPlanner, through `decide`. A device is left
// out (not in the report) when it does not pass the filters or is not named by --only; a
// device Tailscale marks as skipped by default (TailscaleExclusion) is reported as skipped
// unless --only names it or --include-skipped is given (docs/tailscale.md).
import ImportFormats

public struct TailscaleSelection: Sendable, Equatable {
    /// Only the devices answering to one of these names (--only, as given), or nil: all.
    public let only: [String]?
    /// `tag:NAME` strings; a device must carry one of them (none: no tag filter).
    public let tags: [String]
    /// Only devices that are online.
    public let onlineOnly: Bool
    /// Import devices that are skipped by default (sharee nodes, exit nodes, ...).
    public let includeSkipped: Bool
    /// `only`, lower-cased.
    private let wanted: Set<String>

    public init(only: [String]? = nil, tags: [String] = [], onlineOnly: Bool = false, includeSkipped: Bool = false) {
        self.only = only
        self.tags = tags
        self.onlineOnly = onlineOnly
        self.includeSkipped = includeSkipped
        wanted = Set((only ?? []).map { $0.lowercased() })
    }

    /// What the import does with one device.
    public enum Decision: Sendable, Equatable {
        /// Not considered: not in the report.
        case leftOut
        /// Reported as skipped, for this reason.
        case skipped(TailscaleExclusion)
        /// Planned (it may still be skipped for another reason, such as a name clash).
        case planned
    }

    /// The one decision on `node`: filters, then --only (a device named there is planned
    /// even when skipped by default: the user asked for it by name), then the exclusion.
    public func decide(_ node: TailscaleNode) -> Decision {
        guard passesFilters(node) else { return .leftOut }
        if only != nil {
            return Self.names(node).contains(where: wanted.contains) ? .planned : .leftOut
        }
        if let exclusion = node.exclusion, !includeSkipped { return .skipped(exclusion) }
        return .planned
    }

    /// True when `node` passes --tag (any of them) and --online.
    func passesFilters(_ node: TailscaleNode) -> Bool {
        if onlineOnly && node.online != true { return false }
        if !tags.isEmpty && !node.tags.contains(where: { tags.contains($0) }) { return false }
        return true
    }

    /// The names a device answers to in --only, lower-cased: its alias (ASCII or decoded),
    /// MagicDNS name, OS hostname and node ID.
    static func names(_ node: TailscaleNode) -> [String] {
        let m = TailscaleHostMapping(node)
        return [m.alias, m.displayAlias.lowercased(), m.fqdn, node.hostName.lowercased(), node.nodeID.lowercased()]
    }

    /// The first name of --only that no device of `nodes` answers to (filters aside), or nil.
    /// One pass over the devices, whatever the number of names.
    public func firstMissingName(in nodes: [TailscaleNode]) -> String? {
        guard let only else { return nil }
        var found: Set<String> = []
        for node in nodes { found.formUnion(Self.names(node).filter(wanted.contains)) }
        return only.first { !found.contains($0.lowercased()) }
    }
}
