// A host's password across the two stores (CredentialStore): the item under (db id, kind
// password, owner host uuid), the row's `auth = password`.
public import HostStore
public import SecureMemory
import System
import Vault

extension CredentialStore {
    /// Adds `new` (its `hasPassword` is whether a `password` is given); the password's item is
    /// written inside the row's transaction and taken back when the transaction fails.
    public func addHost(_ new: NewHost, password: SecretBytes?) throws -> Host {
        var new = new
        new.hasPassword = password != nil
        var storedID: VaultItemID?
        do {
            let host = try database.addHost(new) { host in
                guard let password else { return }
                let id = Self.passwordItemID(of: host)
                do {
                    try vault.store(password, for: id, label: Self.label(ofPasswordOf: host))
                } catch {
                    throw CredentialStoreError(.storePasswordItem, error)
                }
                storedID = id
                FaultStep.passwordItemStored.reached()
            }
            if password != nil { FaultStep.passwordRowSaved.reached() }
            return host
        } catch {
            if let storedID { _ = try? vault.delete(storedID) }
            throw error
        }
    }

    /// Changes the host called `name`; returns it before and after. A new `password` is
    /// staged as a new item beside the old one (no Secret Service is asked to change an
    /// item, so KeePassXC shows no access dialog) and made the only one once the row is
    /// saved; a failed save takes it back. `changes.password == .clear` deletes the old
    /// item after the row is saved.
    public func editHost(_ name: String, _ changes: HostChanges, password: SecretBytes?) throws -> (old: Host, new: Host) {
        var staged: StagedSecret?
        let host: Host
        var before: Host?
        do {
            host = try database.editHost(name, changes) { oldHost, newHost in
                before = oldHost
                guard let password else { return }
                do {
                    staged = try vault.stage(password, for: Self.passwordItemID(of: newHost), label: Self.label(ofPasswordOf: newHost))
                } catch {
                    throw CredentialStoreError(.storePasswordItem, error)
                }
                FaultStep.passwordStaged.reached()
            }
        } catch {
            if let staged { try? vault.discard(staged) }
            throw error
        }
        let old = before!
        if let staged {
            FaultStep.passwordEditSaved.reached()
            // The new password is saved and is the one read from now on; an old item that
            // cannot be deleted now is deleted by the next write (and never read again).
            try? vault.commit(staged)
        }
        if changes.password == .clear && old.auth == .password {
            do {
                _ = try vault.delete(Self.passwordItemID(of: host))
            } catch {
                throw CredentialStoreError(.deleteOldPassword(host: host), error)
            }
        }
        return (old, host)
    }

    /// Removes the host called `name`, then its password item.
    public func removeHost(_ name: String) throws -> Host {
        let host = try database.removeHost(name)
        if host.auth == .password {
            FaultStep.hostRowRemoved.reached()
            do {
                _ = try vault.delete(Self.passwordItemID(of: host))
            } catch {
                throw CredentialStoreError(.deletePassword(host: host), error)
            }
        }
        return host
    }
}
