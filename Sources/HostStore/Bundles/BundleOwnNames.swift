// Which host-key lines a team bundle may carry (docs/formats.md, "Team bundles"): as with a
// Tailscale document, a bundle only pre-trusts keys for names it owns. A line (plain, hashed,
// `@cert-authority`, `@revoked`) is applied only when every name in it is the name, hostname
// or an alias of one of the bundle's own hosts (`[name]:port` with that host's port; a
// hashed name must hash one of those). Wildcards, negations and other names are refused and
// reported. Import and export use this one rule, so an export imports with nothing refused.
import ImportFormats
import KeyFormats

extension BundleStore {
    /// The reason a line outside the rule is refused.
    static let notOwnedReason = "not one of the bundle's hosts"
    static let tooManyHashedReason = "too many hashed names to check against the bundle's hosts"
    /// HMACs a plan may spend matching hashed lines against the bundle's names (a hashed
    /// line has its own salt, so it is tested on each name: lines × names, bounded here).
    static let hashedMatchBudget = 1_000_000

    /// The lookups a bundle's hosts own: hostname, name and aliases, at the host's port.
    static func ownLookups(_ hosts: [BundleHost]) -> [HostLookupName] {
        var seen: Set<HostLookupName> = []
        var out: [HostLookupName] = []
        for h in hosts {
            for n in [h.hostname, h.name] + h.aliases {
                let lookup = HostLookupName(host: n, port: h.port)
                if seen.insert(lookup).inserted { out.append(lookup) }
            }
        }
        return out
    }

    /// Whether the entries of one line name only `own`: nil (allowed, with the own lookups
    /// its hashed names match) or the reason it is refused.
    static func ownership(of entries: [KnownHostsStore.BundleEntry], own: [HostLookupName], ownSet: Set<HostLookupName>,
                          budget: inout Int) -> (refused: String?, matched: [HostLookupName]) {
        var matched: [HostLookupName] = []
        for e in entries {
            if e.plain && e.port != 0 {
                guard ownSet.contains(HostLookupName(host: e.pattern, port: e.port)) else { return (notOwnedReason, []) }
            } else if let hashed = e.hashed {
                budget -= own.count
                guard budget >= 0 else { return (tooManyHashedReason, []) }
                let hits = own.filter { hashed.matches($0.text) }
                guard !hits.isEmpty else { return (notOwnedReason, []) }
                matched += hits
            } else {
                // A wildcard, a negation, a pattern list or a literal no lookup equals.
                return (notOwnedReason, [])
            }
        }
        return (nil, matched)
    }
}
