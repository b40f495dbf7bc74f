// Which serial of each bundle was applied, and a digest of its text.

extension BundleStore {
    /// The serial of bundle `bundle` last applied, or nil when it never was.
    public func appliedSerial(bundle: String) throws -> UInt64? {
        throw HostStoreError(.failed, "bundle state: not written yet")
    }

    /// The SHA-256 (hex) of the canonical text last applied for bundle `bundle`, or nil.
    public func appliedDigest(bundle: String) throws -> String? {
        throw HostStoreError(.failed, "bundle state: not written yet")
    }
}
