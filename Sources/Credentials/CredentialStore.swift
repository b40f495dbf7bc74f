// Keys and passwords kept across the two stores: the database holds the row (a key's public
// half, a host's `auth = password`), the vault the secret (VaultItemID: db id, kind, owner
// uuid). HostStore and Vault never import each other; this type alone composes them and
// owns the order of every write that touches both (docs/architecture.md, "Layers"):
//
// - adding: the vault item first, then the row in a transaction; when the row cannot be
//   written the item is taken back, so no row ever points at nothing;
// - replacing a password: the new item is staged beside the old one, which goes only once
//   the row is saved (StagedSecret), so a failed save loses nothing;
// - removing: the row first, then the item; an item left behind is an orphan that
//   `hostbook doctor` lists, never a row without its secret. Applying a team bundle that
//   drops hosts is a removal: the whole plan's rows, then the dropped hosts' password items
//   (CredentialStore+Bundles.swift).
//
// The executable reads secrets from the user and presents the outcome; it never orders
// the two stores itself.
public import HostStore
public import Vault

public struct CredentialStore {
    public let database: HostDatabase
    public let keys: KeyStore
    public let vault: VaultClient

    /// The stores of `database`: its rows, and the vault items scoped to its id (opening the
    /// client touches no service yet).
    public init(database: HostDatabase) {
        self.database = database
        keys = KeyStore(database: database)
        vault = VaultClient(databaseID: database.databaseID)
    }

    /// The vault item holding the private key of `key`.
    public static func itemID(of key: StoredKey) -> VaultItemID { VaultItemID(kind: .privateKey, owner: key.uuid) }

    /// The vault item holding the password of `host`.
    public static func passwordItemID(of host: Host) -> VaultItemID { VaultItemID(kind: .password, owner: host.uuid) }

    /// What keyring programs show for a key's item.
    static func label(ofKeyNamed name: String) -> String { "hostbook key '\(name)'" }

    /// What keyring programs show for a host's password item.
    static func label(ofPasswordOf host: Host) -> String { "hostbook password for \(host.name)" }
}
