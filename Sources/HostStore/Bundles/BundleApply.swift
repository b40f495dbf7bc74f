// Planning and applying a bundle: the ownership rules of docs/formats.md, "Team bundles".
import ImportFormats

extension BundleStore {
    /// What applying `document` as bundle `name` would change; writes nothing. Throws
    /// `BundleRefusal` for a replayed or reused serial, or a document of another name.
    public func plan(_ document: BundleDocument, bundle name: String) throws -> BundlePlan {
        throw HostStoreError(.failed, "bundle plan: not written yet")
    }

    /// Applies `plan` in one transaction: nothing is written when anything fails. Throws
    /// `HostStoreError(.changedMeanwhile)` when the database changed since the plan.
    public func apply(_ plan: BundlePlan) throws {
        throw HostStoreError(.failed, "bundle apply: not written yet")
    }
}
