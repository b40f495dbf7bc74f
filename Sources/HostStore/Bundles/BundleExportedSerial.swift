// The serial a publisher's database last wrote for each bundle name (bundle_exported), and
// the highest serial it knows of a bundle: exported here or applied here (an import or an
// update of a trusted bundle). An export writes one more than that (or than the trusted
// bundle already in its folder, if higher), so a fresh folder never starts again at 1.

extension BundleStore {
    /// The serial last exported from this database for bundle `bundle`, or nil.
    public func exportedSerial(bundle: String) throws -> UInt64? {
        try database.read {
            try connection.query("SELECT serial FROM bundle_exported WHERE bundle = ?", [.text(bundle)]).first?.int(0).map { UInt64(bitPattern: $0) }
        }
    }

    /// The highest serial of bundle `bundle` this database exported or applied (0: none).
    public func knownSerial(bundle: String) throws -> UInt64 {
        try database.read {
            let exported = try connection.query("SELECT serial FROM bundle_exported WHERE bundle = ?", [.text(bundle)]).first?.int(0).map { UInt64(bitPattern: $0) }
            return max(exported ?? 0, try applied(bundle)?.serial ?? 0)
        }
    }

    /// Records `serial` as exported for bundle `bundle`; a lower one never replaces a higher.
    public func recordExported(bundle: String, serial: UInt64) throws {
        try Self.requireName(bundle)
        try database.write {
            let current = try connection.query("SELECT serial FROM bundle_exported WHERE bundle = ?", [.text(bundle)]).first?.int(0).map { UInt64(bitPattern: $0) }
            guard current.map({ $0 < serial }) ?? true else { return }
            _ = try connection.run("INSERT OR REPLACE INTO bundle_exported (bundle, serial, exported_at) VALUES (?, ?, ?)",
                               [.text(bundle), .int(Int64(bitPattern: serial)), .text(StoreClock.timestamp())])
        }
    }
}
