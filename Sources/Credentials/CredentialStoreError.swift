// Why a write across the two stores failed, and at which step: the executable words each
// step for the user (Commands/Keys/KeyErrorPresentation.swift). Refusals of the database
// (a name taken, a key in use, a host that does not exist, ...) are not wrapped: they
// arrive as the HostStoreError they are.
public import HostStore
import Vault

public struct CredentialStoreError: Error {
    public enum Step: Sendable {
        /// Reading the keys to decide whether a key may be stored (database).
        case checkKey
        /// Storing a private key's item (vault); nothing was written.
        case storeKeyItem
        /// Saving a new key's row (database); its item was taken back, nothing was stored.
        case saveKeyRow
        /// Removing the key called `name` (database); nothing was removed.
        case removeKeyRow(name: String)
        /// Deleting the item of `key`, whose row is gone already (vault): a leftover item.
        case deleteKeyItem(key: StoredKey)
        /// Storing a host's password item (vault); nothing was written.
        case storePasswordItem
        /// Deleting the old password of `host`, whose row no longer uses one (vault).
        case deleteOldPassword(host: Host)
        /// Deleting the password of `host`, whose row is gone (vault).
        case deletePassword(host: Host)
        /// Deleting the passwords of `hosts`, which bundle `bundle` removed; the bundle is
        /// applied (vault).
        case deleteBundlePasswords(bundle: String, hosts: [String])
    }

    public let step: Step
    /// The VaultError or HostStoreError (kind `.database`) met at that step.
    public let underlying: Error

    public init(_ step: Step, _ underlying: Error) {
        self.step = step
        self.underlying = underlying
    }
}
