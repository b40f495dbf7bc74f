// Who may sign a bundle: the public keys `hostbook bundle trust NAME --signer KEY` recorded.
import KeyFormats

extension BundleStore {
    /// Records `signer` as allowed to sign bundle `bundle`. Repeatable; trusting the same
    /// key again changes nothing. Returns true when the key was new for this bundle.
    @discardableResult
    public func trust(bundle: String, signer: PublicKey) throws -> Bool {
        throw HostStoreError(.failed, "bundle signers: not written yet")
    }

    /// Forgets `signer` for bundle `bundle`; true when it was trusted.
    @discardableResult
    public func untrust(bundle: String, signer: PublicKey) throws -> Bool {
        throw HostStoreError(.failed, "bundle signers: not written yet")
    }

    /// The keys allowed to sign bundle `bundle`, in the order they were trusted.
    public func signers(bundle: String) throws -> [PublicKey] {
        throw HostStoreError(.failed, "bundle signers: not written yet")
    }
}
