// What every keys command works with: the database (key metadata) and the vault (private
// keys), scoped to the database's id, composed by Credentials' CredentialStore (which orders
// every write to both). Opening the vault client touches no service yet.
import Credentials
import HostStore
import Vault

struct KeysContext {
    let credentials: CredentialStore
    var database: HostDatabase { credentials.database }
    var store: KeyStore { credentials.keys }
    var vault: VaultClient { credentials.vault }

    static func open(_ inv: Invocation) throws -> KeysContext {
        let database: HostDatabase
        do {
            database = try inv.workspace.database()
        } catch {
            throw KeysFailure.database(error, "cannot open the database '\(inv.databasePath)'")
        }
        return KeysContext(credentials: CredentialStore(database: database))
    }

    /// For commands that only read: nil when there is no database yet (nothing is created).
    static func openForReading(_ inv: Invocation) throws -> KeysContext? {
        let database: HostDatabase?
        do {
            database = try inv.workspace.existingDatabase()
        } catch {
            throw KeysFailure.database(error, "cannot open the database '\(inv.databasePath)'")
        }
        return database.map { KeysContext(credentials: CredentialStore(database: $0)) }
    }

    /// For commands that read one key: its context and the key; not found (exit 4) when
    /// there is no database yet.
    static func existingKey(_ inv: Invocation, named name: String) throws -> (KeysContext, StoredKey) {
        guard let ctx = try openForReading(inv) else { throw KeysFailure.notFound(name) }
        return (ctx, try ctx.key(named: name))
    }

    func key(named name: String) throws -> StoredKey {
        let found: StoredKey?
        do { found = try store.find(name: name) } catch { throw KeysFailure.database(error, "cannot read the keys") }
        guard let found else { throw KeysFailure.notFound(name) }
        return found
    }
}
