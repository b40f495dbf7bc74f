// Who may sign a bundle: the public keys `hostbook bundle trust NAME --signer KEY` recorded.
import ImportFormats
import KeyFormats

extension BundleStore {
    /// Records `signer` as allowed to sign bundle `bundle`. Repeatable; trusting the same
    /// key again changes nothing. Returns true when the key was new for this bundle.
    @discardableResult
    public func trust(bundle: String, signer: PublicKey) throws -> Bool {
        try Self.requireName(bundle)
        return try database.write {
            try connection.run("""
                INSERT OR IGNORE INTO bundle_signers (bundle, key_type, key_blob, fingerprint, added_at) VALUES (?, ?, ?, ?, ?)
                """, [.text(bundle), .text(signer.type), .blob(signer.blob), .text(signer.sha256Fingerprint), .text(StoreClock.timestamp())]) > 0
        }
    }

    /// Forgets `signer` for bundle `bundle`; true when it was trusted.
    @discardableResult
    public func untrust(bundle: String, signer: PublicKey) throws -> Bool {
        try database.write {
            try connection.run("DELETE FROM bundle_signers WHERE bundle = ? AND key_blob = ?", [.text(bundle), .blob(signer.blob)]) > 0
        }
    }

    /// The keys allowed to sign bundle `bundle`, in the order they were trusted.
    public func signers(bundle: String) throws -> [PublicKey] {
        try database.read {
            try connection.query("SELECT key_blob FROM bundle_signers WHERE bundle = ? ORDER BY id", [.text(bundle)]).compactMap {
                $0.blob(0).flatMap { try? PublicKey(blob: $0) }
            }
        }
    }

    /// A bundle name that BundleName refuses is `.rejected` (exit 5).
    static func requireName(_ bundle: String) throws {
        if let problem = BundleName.problem(bundle) { throw HostStoreError.rejected(problem) }
    }
}
