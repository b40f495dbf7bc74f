// What every keys command works with: the database (key metadata) and the vault (private
// keys), scoped to the database's id. Opening the vault client touches no service yet.
import HostStore
import Vault

struct KeysContext {
    let database: HostDatabase
    let store: KeyStore
    let vault: VaultClient

    static func open(_ inv: Invocation) throws -> KeysContext {
        let database: HostDatabase
        do {
            database = try HostDatabase.open(path: inv.databasePath)
        } catch {
            throw KeysFailure.database(error, "cannot open the database '\(inv.databasePath)'")
        }
        return KeysContext(database: database, store: KeyStore(database: database),
                           vault: VaultClient(databaseID: database.databaseID))
    }

    func key(named name: String) throws -> StoredKey {
        let found: StoredKey?
        do { found = try store.find(name: name) } catch { throw KeysFailure.database(error, "cannot read the keys") }
        guard let found else { throw KeysFailure.notFound(name) }
        return found
    }

    static func vaultID(_ key: StoredKey) -> VaultItemID { VaultItemID(kind: .privateKey, owner: key.uuid) }
}
