// What `hostbook bundle list` shows of each bundle this database knows: where it is
// subscribed from, who may sign it, the host patterns granted to its certificate
// authorities, the serial applied and when, the serial exported.
import KeyFormats

/// One bundle name known to this database (trusted, subscribed, applied or exported).
public struct BundleOverview: Sendable, Equatable {
    public let name: String
    /// The subscription's URL or path; nil when not subscribed.
    public let url: String?
    /// The trusted signers, in the order they were trusted.
    public let signers: [PublicKey]
    /// The host patterns granted to its certificate authorities (`bundle trust --ca-scope`), sorted.
    public let caScope: [String]
    /// The serial last applied and when (RFC 3339, UTC); nil when never applied.
    public let appliedSerial: UInt64?
    public let appliedAt: String?
    /// The serial this database last exported; nil when it never exported the bundle.
    public let exportedSerial: UInt64?
}

extension BundleStore {
    /// Every bundle name this database knows, sorted by name.
    public func overview() throws -> [BundleOverview] {
        try database.read {
            var names: [String: String] = [:]
            for table in ["bundle_signers", "bundle_subscriptions", "bundle_applied", "bundle_exported", "bundle_ca_scopes"] {
                for row in try connection.query("SELECT DISTINCT bundle FROM \(table)") {
                    if let n = row.text(0), names[n.lowercased()] == nil { names[n.lowercased()] = n }
                }
            }
            return try names.values.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { name in
                let url = try connection.query("SELECT url FROM bundle_subscriptions WHERE bundle = ?", [.text(name)]).first?.text(0)
                let signers = try connection.query("SELECT key_blob FROM bundle_signers WHERE bundle = ? ORDER BY id", [.text(name)]).compactMap {
                    $0.blob(0).flatMap { try? PublicKey(blob: $0) }
                }
                let applied = try connection.query("SELECT serial, applied_at FROM bundle_applied WHERE bundle = ?", [.text(name)]).first
                let exported = try connection.query("SELECT serial FROM bundle_exported WHERE bundle = ?", [.text(name)]).first?.int(0)
                return BundleOverview(name: name, url: url, signers: signers, caScope: try scopes(bundle: name),
                                      appliedSerial: applied?.int(0).map { UInt64(bitPattern: $0) }, appliedAt: applied?.text(1),
                                      exportedSerial: exported.map { UInt64(bitPattern: $0) })
            }
        }
    }
}
