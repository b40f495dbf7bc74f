// Applying a team bundle across the two stores (CredentialStore): a bundle writes only rows,
// but a host it drops may have a password the user stored for it (`hostbook edit HOST
// --password-stdin` on a bundle host). The order is removeHost's: the rows first (the whole
// plan, one transaction: BundleStore.apply), then the password items of the hosts it removed
// or moved to another address (BundlePlan.removedPasswords); an item that cannot be deleted then is an orphan `hostbook
// doctor` lists, never a row without its secret.
public import HostStore
import System
import Vault

extension CredentialStore {
    /// Applies `plan`, then deletes the password items of the hosts it removed. Throws what
    /// BundleStore.apply throws (then nothing was written). Once the rows are written the
    /// bundle is applied: a `.deleteBundlePasswords` error naming the hosts whose item is
    /// left over (every item is tried) is returned, for the caller to report once it has
    /// finished what follows the apply (a subscription's record and checkout); nil when
    /// every item went.
    public func applyBundle(_ plan: BundlePlan) throws -> CredentialStoreError? {
        try BundleStore(database: database).apply(plan)
        FaultStep.bundleRowsSaved.reached()
        var leftover: [String] = []
        var firstError: Error?
        for removed in plan.removedPasswords {
            do {
                _ = try vault.delete(VaultItemID(kind: .password, owner: removed.uuid))
            } catch {
                leftover.append(removed.host)
                if firstError == nil { firstError = error }
            }
        }
        return firstError.map { CredentialStoreError(.deleteBundlePasswords(bundle: plan.bundle, hosts: leftover), $0) }
    }
}
