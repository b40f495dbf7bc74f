// The scope a subscriber grants a bundle beyond its own hosts (`bundle trust NAME
// --ca-scope PATTERN`, table bundle_ca_scopes): host patterns its `@cert-authority` lines
// may name. TrustAuthority decides with them (its `granted`); which patterns may be granted
// is its `scopeProblem`.
import KeyFormats

extension BundleStore {
    /// Grants bundle `bundle` the host patterns `patterns`; returns those that were new.
    /// A pattern TrustAuthority.scopeProblem refuses is `.rejected` and nothing is written.
    @discardableResult
    public func grant(bundle: String, patterns: [String]) throws -> [String] {
        try Self.requireName(bundle)
        for p in patterns {
            if let problem = TrustAuthority.scopeProblem(p) {
                throw HostStoreError.rejected("--ca-scope '\(PrintableText.quoted(p))': \(problem)")
            }
        }
        return try database.write {
            var added: [String] = []
            for p in patterns where try connection.run("INSERT OR IGNORE INTO bundle_ca_scopes (bundle, pattern, added_at) VALUES (?, ?, ?)",
                                                        [.text(bundle), .text(p), .text(StoreClock.timestamp())]) > 0 {
                added.append(p)
            }
            return added
        }
    }

    /// Takes back the patterns granted to bundle `bundle` (all of them when `patterns` is
    /// nil); returns how many went.
    @discardableResult
    public func revokeScope(bundle: String, patterns: [String]? = nil) throws -> Int {
        try database.write {
            guard let patterns else { return try connection.run("DELETE FROM bundle_ca_scopes WHERE bundle = ?", [.text(bundle)]) }
            var removed = 0
            for p in patterns { removed += try connection.run("DELETE FROM bundle_ca_scopes WHERE bundle = ? AND pattern = ?", [.text(bundle), .text(p)]) }
            return removed
        }
    }

    /// The patterns granted to bundle `bundle`, sorted.
    public func scopes(bundle: String) throws -> [String] {
        try database.read {
            try connection.query("SELECT pattern FROM bundle_ca_scopes WHERE bundle = ? ORDER BY pattern", [.text(bundle)]).compactMap { $0.text(0) }
        }
    }
}
