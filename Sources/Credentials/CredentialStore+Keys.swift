// Storing, restoring and removing a private key across the two stores (CredentialStore).
// Whether a key may be stored is KeyStore.checkFree's decision; the one exception decided
// here is a key the database knows whose vault item is gone (a replaced keyring, an item
// deleted by hand): importing that key again restores the item under the stored key, with
// its name, comment and hosts as they were.
public import HostStore
public import KeyFormats
import SecureMemory
import System
import Vault

extension CredentialStore {
    /// What storing a key will do.
    public enum KeyAdmission: Sendable, Equatable {
        /// A new key: a new item and a new row.
        case new
        /// The stored key `StoredKey` has no vault item: only the item is written again.
        case restore(StoredKey)
    }

    /// Where storing a key led.
    public enum KeyStored: Sendable, Equatable {
        case added(StoredKey)
        case restored(StoredKey)

        public var key: StoredKey {
            switch self { case .added(let k), .restored(let k): k }
        }
    }

    /// Whether a key called `name` with `publicKey` may be stored (KeyStore.checkFree), or
    /// is a stored key to restore. `publicKey` nil: the key is not known yet (an encrypted
    /// file that shows no public key); then a taken name is let through when its key has
    /// no vault item, since the file may be that very key (decided again once it is read).
    public func admission(name: String, publicKey: PublicKey?) throws -> KeyAdmission {
        do {
            try keys.checkFree(name: name, fingerprint: publicKey?.sha256Fingerprint)
            return .new
        } catch let refusal as HostStoreError where refusal.kind == .keyAlreadyStored || refusal.kind == .keyNameTaken {
            let stored: StoredKey?
            do {
                stored = try publicKey.map { try keys.find(fingerprint: $0.sha256Fingerprint) } ?? keys.find(name: name)
            } catch {
                throw CredentialStoreError(.checkKey, error)
            }
            // A key another agent or a token holds has no item to restore.
            guard let stored, stored.location.hasVaultItem, !hasItem(stored) else { throw refusal }
            return publicKey == nil ? .new : .restore(stored)
        } catch let e as HostStoreError where e.kind == .database {
            throw CredentialStoreError(.checkKey, e)
        }
    }

    /// Stores `key` as a new key called `name` (`format`: where it came from), or restores
    /// the item of the stored key it is (see `admission`).
    public func store(_ key: PrivateKey, name: String, format: String) throws -> KeyStored {
        let admission = try self.admission(name: name, publicKey: key.publicKey)
        let payload = try OpenSSHPrivateKey.encode(key, passphrase: nil)
        switch admission {
        case .restore(let stored):
            do {
                try vault.store(payload, for: Self.itemID(of: stored), label: Self.label(ofKeyNamed: stored.name))
            } catch {
                throw CredentialStoreError(.storeKeyItem, error)
            }
            return .restored(stored)
        case .new:
            let uuid = UUIDString.random()
            let id = VaultItemID(kind: .privateKey, owner: uuid)
            do {
                try vault.store(payload, for: id, label: Self.label(ofKeyNamed: name))
            } catch {
                throw CredentialStoreError(.storeKeyItem, error)
            }
            FaultStep.keyItemStored.reached()
            do {
                let added = try keys.insert(NewKey(uuid: uuid, name: name, publicKey: key.publicKey,
                                                   comment: key.comment, format: format, skFlags: key.securityKeyFlags))
                FaultStep.keyRowSaved.reached()
                return .added(added)
            } catch {
                _ = try? vault.delete(id)
                if let e = error as? HostStoreError, e.kind != .database { throw e }
                throw CredentialStoreError(.saveKeyRow, error)
            }
        }
    }

    /// Removes the key called `name`: the row (refused while hosts use it), then its item.
    /// Nil when there is no such key.
    public func removeKey(named name: String) throws -> StoredKey? {
        let removed: StoredKey?
        do {
            removed = try keys.remove(name: name)
        } catch let e as HostStoreError where e.kind != .database {
            throw e
        } catch {
            throw CredentialStoreError(.removeKeyRow(name: name), error)
        }
        guard let removed else { return nil }
        FaultStep.keyRowRemoved.reached()
        guard removed.location.hasVaultItem else { return removed }
        do {
            try vault.delete(Self.itemID(of: removed))
        } catch {
            throw CredentialStoreError(.deleteKeyItem(key: removed), error)
        }
        return removed
    }

    /// Whether the vault holds the item of `stored`; true when the vault cannot say (then
    /// nothing is restored over what may be there).
    func hasItem(_ stored: StoredKey) -> Bool {
        guard let items = try? vault.allItems() else { return true }
        return items.contains(Self.itemID(of: stored))
    }
}
