// A certificate authority's private key across the two stores, in the same order as a key's
// (CredentialStore+Keys.swift): the vault item first (kind private-key, owner the CA's
// uuid), then the row; the item is taken back when the row cannot be written. Removing
// deletes the row first, then the item.
public import HostStore
public import KeyFormats
import SecureMemory
import Vault

extension CredentialStore {
    /// The vault item holding the private key of `authority`.
    public static func itemID(of authority: StoredAuthority) -> VaultItemID {
        VaultItemID(kind: .privateKey, owner: authority.uuid)
    }

    static func label(ofAuthorityNamed name: String) -> String { "hostbook certificate authority '\(name)'" }

    /// Stores `key` as the new CA `name`. Refusals (`CertificateAuthorityRefusal`) arrive as
    /// they are; a failing store is a `CredentialStoreError`.
    public func createAuthority(_ key: PrivateKey, name: String) throws -> StoredAuthority {
        let authorities = CertificateAuthorityStore(database: database)
        do {
            try authorities.checkFree(name: name, fingerprint: key.publicKey.sha256Fingerprint)
        } catch let refusal as CertificateAuthorityRefusal {
            throw refusal
        } catch {
            throw CredentialStoreError(.checkKey, error)
        }
        let payload = try OpenSSHPrivateKey.encode(key, passphrase: nil)
        let uuid = UUIDString.random()
        let id = VaultItemID(kind: .privateKey, owner: uuid)
        do {
            try vault.store(payload, for: id, label: Self.label(ofAuthorityNamed: name))
        } catch {
            throw CredentialStoreError(.storeKeyItem, error)
        }
        do {
            return try authorities.insert(uuid: uuid, name: name, publicKey: key.publicKey)
        } catch {
            _ = try? vault.delete(id)
            if error is CertificateAuthorityRefusal { throw error }
            throw CredentialStoreError(.saveKeyRow, error)
        }
    }

    /// The private key of `authority` from the vault, checked against its row; nil when the
    /// vault has no item for it.
    public func authorityKey(_ authority: StoredAuthority) throws -> PrivateKey? {
        guard let payload = try vault.lookup(Self.itemID(of: authority)) else { return nil }
        let key = try OpenSSHPrivateKey.parse(payload, passphrase: nil).key
        guard key.publicKey.blob == authority.publicKeyBlob else {
            throw KeyFormatError.invalid("the vault's private key is not the key of certificate authority '\(authority.name)'")
        }
        return key
    }
}
