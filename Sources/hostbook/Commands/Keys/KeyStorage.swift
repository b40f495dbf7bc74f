// Storing a new private key in both stores (docs/architecture.md, "Layers"): the
// vault item first (the unencrypted openssh-key-v1 text), then the database row in a
// transaction; when the row cannot be written, the vault item is deleted again.
import HostStore
import KeyFormats
import SecureMemory
import Vault

enum KeyStorage {
    /// Refuses a name or key that is already stored, before anything is written.
    static func checkFree(_ ctx: KeysContext, name: String, publicKey: PublicKey?) throws {
        do {
            if let publicKey, let existing = try ctx.store.find(fingerprint: publicKey.sha256Fingerprint) {
                throw HostStoreError.keyAlreadyStored(existingName: existing.name, fingerprint: existing.fingerprint)
            }
            if try ctx.store.find(name: name) != nil { throw HostStoreError.keyNameTaken(name) }
        } catch let e as HostStoreError where e.kind != .database {
            throw e
        } catch {
            throw KeysFailure.database(error, "cannot read the keys")
        }
    }

    static func store(_ ctx: KeysContext, key: PrivateKey, name: String, format: String) throws -> StoredKey {
        try checkFree(ctx, name: name, publicKey: key.publicKey)
        let payload = try OpenSSHPrivateKey.encode(key, passphrase: nil)
        let uuid = UUIDString.random()
        let id = VaultItemID(kind: .privateKey, owner: uuid)
        do {
            try ctx.vault.store(payload, for: id, label: "hostbook key '\(name)'")
        } catch {
            throw KeysFailure.vault(error, "cannot store the private key in the vault")
        }
        do {
            return try ctx.store.insert(NewKey(uuid: uuid, name: name, publicKey: key.publicKey,
                                               comment: key.comment, format: format))
        } catch {
            _ = try? ctx.vault.delete(id)
            if let e = error as? HostStoreError, e.kind != .database { throw e }
            throw KeysFailure.database(error, "cannot save the key in the database (nothing was stored)")
        }
    }
}
