// What every keys command works with: the database (key metadata) and the vault (private
// keys), scoped to the database's id, composed by Credentials' CredentialStore (which orders
// every write to both), over the command's workspace. Opening the vault client touches no
// service yet.
import Credentials
import HostStore
import Vault

public struct KeysContext {
    public let credentials: CredentialStore
    public var database: HostDatabase { credentials.database }
    public var store: KeyStore { credentials.keys }
    public var vault: VaultClient { credentials.vault }

    public init(credentials: CredentialStore) {
        self.credentials = credentials
    }

    public static func open(_ workspace: Workspace) throws -> KeysContext {
        KeysContext(credentials: try KeysRefusal.database(.open(path: workspace.databasePath)) { try workspace.credentials() })
    }

    /// For commands that only read: nil when there is no database yet (nothing is created).
    public static func openForReading(_ workspace: Workspace) throws -> KeysContext? {
        try KeysRefusal.database(.open(path: workspace.databasePath)) { try workspace.existingCredentials() }
            .map(KeysContext.init(credentials:))
    }

    /// For commands that read one key: its context and the key; not found when there is no
    /// database yet.
    public static func existingKey(_ workspace: Workspace, named name: String) throws -> (KeysContext, StoredKey) {
        guard let ctx = try openForReading(workspace) else { throw KeysRefusal.keyNotFound(name) }
        return (ctx, try ctx.key(named: name))
    }

    public func key(named name: String) throws -> StoredKey {
        let found = try KeysRefusal.database(.readKeys) { try store.find(name: name) }
        guard let found else { throw KeysRefusal.keyNotFound(name) }
        return found
    }
}
