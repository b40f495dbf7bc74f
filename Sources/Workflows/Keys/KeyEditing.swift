// `keys edit`'s work: a key's name, comment and approval settings (KeyChanges), and the
// SSHSIG namespaces it is restricted to (KeyNamespaces), over the command's workspace.
import HostStore

public enum KeyEditing {
    public struct Result {
        public let key: StoredKey
        public let use: KeySigningUse
        /// The saved hosts that log in with the key, now restricted to namespaces: they will
        /// be refused (empty when none, or the key is not restricted).
        public let refusedHosts: [String]
    }

    /// Applies `changes`, then `namespaces` (nil: unchanged; empty: lifted). A key that
    /// does not exist is refused without creating a database.
    public static func edit(_ name: String, _ changes: KeyChanges, namespaces: Set<String>?, workspace: Workspace) throws -> Result {
        _ = try KeysContext.existingKey(workspace, named: name)
        let ctx = try KeysContext.open(workspace)
        var key = try ctx.key(named: name)
        if !changes.isEmpty {
            let changed: StoredKey?
            do {
                changed = try KeysRefusal.database(.changeKey(name)) { try ctx.store.update(name: name, changes) }
            } catch let e as HostStoreError where e.kind == .keyNameTaken {
                throw KeysRefusal.keyNameTaken(changes.rename ?? name)
            }
            guard let changed else { throw KeysRefusal.keyNotFound(name) }
            key = changed
        }
        var refusedHosts: [String] = []
        if let namespaces {
            let current = key
            try KeysRefusal.database(.changeKey(key.name)) { try KeyNamespaces(database: ctx.database).set(namespaces, for: current) }
            if !namespaces.isEmpty { refusedHosts = (try? ctx.database.hostsLoggingIn(withKey: key.name)) ?? [] }
        }
        return Result(key: key, use: try KeySigningUse.load(ctx.database, key), refusedHosts: refusedHosts)
    }
}
