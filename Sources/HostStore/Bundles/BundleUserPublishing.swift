// Whether a host's user is published in bundles (bundle_user_omitted): `hostbook edit NAME
// --bundle-user omit` leaves it out of every export (each subscriber's default user then
// applies), `--bundle-user publish` (the default) puts it back. `bundle export --no-user`
// leaves out every host's user for one export.

/// What an export does with a host's user.
public enum BundleUserPublishing: String, CaseIterable, Sendable {
    /// The host's user is published (the default).
    case publish
    /// The host is published without a user.
    case omit
}

extension BundleStore {
    /// Sets what exports do with the user of the host with row id `hostID`.
    public func setUserPublishing(hostID: Int64, _ publishing: BundleUserPublishing) throws {
        try database.write {
            switch publishing {
            case .omit: _ = try connection.run("INSERT OR IGNORE INTO bundle_user_omitted (host_id) VALUES (?)", [.int(hostID)])
            case .publish: _ = try connection.run("DELETE FROM bundle_user_omitted WHERE host_id = ?", [.int(hostID)])
            }
        }
    }

    /// What exports do with the user of the host with row id `hostID`.
    public func userPublishing(hostID: Int64) throws -> BundleUserPublishing {
        try database.read { try userOmittedHostIDs().contains(hostID) ? .omit : .publish }
    }

    /// The row ids of the hosts published without their user.
    func userOmittedHostIDs() throws -> Set<Int64> {
        Set(try connection.query("SELECT host_id FROM bundle_user_omitted").compactMap { $0.int(0) })
    }
}
