// `bundle trust` and `bundle untrust`'s work on the workspace's database: the keys that may
// sign bundle NAME (BundleStore.trust / untrust) and the host patterns granted to its
// certificate authorities (BundleStore.grant / revokeScope). The executable reads the
// `--signer` lines and `--ca-scope` patterns and prints what changed.
import HostStore
import KeyFormats

public enum BundleTrusting {
    public struct Trusted {
        /// Each signer given, and whether it was added now (false: trusted already).
        public let signers: [(key: PublicKey, added: Bool)]
        /// The patterns of `scope` granted now.
        public let granted: [String]
        /// Every pattern granted to the bundle after the change.
        public let scope: [String]
    }

    public struct Untrusted {
        /// Each signer given, and whether it was trusted until now.
        public let signers: [(key: PublicKey, removed: Bool)]
        /// The patterns taken back now.
        public let scopeRemoved: [String]
    }

    public static func trust(_ workspace: Workspace, bundle: String, signers: [PublicKey], scope: [String]) throws -> Trusted {
        let store = BundleStore(database: try workspace.database())
        var added: [(key: PublicKey, added: Bool)] = []
        for key in signers { added.append((key, try store.trust(bundle: bundle, signer: key))) }
        let granted = try store.grant(bundle: bundle, patterns: scope)
        return Trusted(signers: added, granted: granted, scope: try store.scopes(bundle: bundle))
    }

    /// With no database nothing is trusted, and none is created to say so.
    public static func untrust(_ workspace: Workspace, bundle: String, signers: [PublicKey], scope: [String]) throws -> Untrusted {
        guard try workspace.existingDatabase() != nil else {
            return Untrusted(signers: signers.map { ($0, false) }, scopeRemoved: [])
        }
        let store = BundleStore(database: try workspace.database())
        var removed: [(key: PublicKey, removed: Bool)] = []
        for key in signers { removed.append((key, try store.untrust(bundle: bundle, signer: key))) }
        var scopeRemoved: [String] = []
        for p in scope where try store.revokeScope(bundle: bundle, patterns: [p]) > 0 { scopeRemoved.append(p) }
        return Untrusted(signers: removed, scopeRemoved: scopeRemoved)
    }
}
