// Which host-key lines a team bundle may carry (docs/formats.md, "Who may speak for a
// host"): the bundle is one origin of TrustAuthority, which decides; this file only hands it
// the bundle's own hosts (hostname, name and aliases at the host's port), the patterns the
// subscriber granted it (`bundle trust --ca-scope`), the saved hosts of every origin and
// the trust they hold. Import and export use this one rule, so an export
// imports with nothing refused.
import ImportFormats
import KeyFormats

extension BundleStore {
    /// The reason a line naming anything but the bundle's hosts is refused.
    static let notOwnedReason = TrustAuthority.notBundleHostReason

    /// The authority for bundle `name`, whose hosts after the plan are `hosts`.
    func authority(bundle name: String, hosts: [BundleHost], store: KnownHostsStore) throws -> TrustAuthority {
        let own = TrustAuthority.lookups(of: hosts.map { ($0.name, $0.hostname, $0.port, $0.aliases) })
        return TrustAuthority(origin: .bundle(name), scope: .hosts(own), granted: Set(try scopes(bundle: name)), claims: try TrustClaims.read(connection),
                              trustHeld: { try store.entries(matching: $0) })
    }

    /// The names of one line, as the authority sees them.
    static func targets(_ entries: [KnownHostsStore.BundleEntry]) -> [TrustAuthority.Target] {
        entries.map { TrustAuthority.Target(pattern: $0.pattern, port: $0.port, hashed: $0.hashed, literal: $0.plain) }
    }
}
