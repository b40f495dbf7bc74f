// What `hostbook bundle export` writes: a bundle document made from the database.
import ImportFormats

extension BundleStore {
    /// The bundle document of this database: hosts (all, or those with any of `tags`) that
    /// did not come from another bundle, every snippet, and the host keys of those hosts
    /// (their hostnames, ports and aliases) plus every `@cert-authority` and `@revoked`
    /// entry. Never a password or key material.
    public func document(name: String, tags: [String] = [], serial: UInt64) throws -> BundleDocument {
        throw HostStoreError(.failed, "bundle export: not written yet")
    }
}
