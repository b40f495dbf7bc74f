// What a key may sign beyond ssh authentication, as `keys show` / `keys list` present it:
// the SSHSIG namespaces it is restricted to (KeyNamespaces) and the email it signs git
// commits as (GitSigningKeys).
import HostStore

public struct KeySigningUse: Sendable {
    /// Sorted; empty: not restricted.
    public var namespaces: [String] = []
    /// nil: not set up for git.
    public var gitEmail: String?

    public static let none = KeySigningUse()

    public static func load(_ database: HostDatabase, _ key: StoredKey) throws -> KeySigningUse {
        try KeysRefusal.database(.readKeys) {
            KeySigningUse(namespaces: try KeyNamespaces(database: database).namespaces(of: key),
                          gitEmail: try GitSigningKeys(database: database).email(of: key))
        }
    }

    /// Every key's, by key id (one read each for the whole listing).
    public static func all(_ database: HostDatabase) throws -> [Int64: KeySigningUse] {
        try KeysRefusal.database(.readKeys) {
            var result: [Int64: KeySigningUse] = [:]
            for (id, namespaces) in try KeyNamespaces(database: database).all() { result[id, default: .none].namespaces = namespaces.sorted() }
            for entry in try GitSigningKeys(database: database).all() { result[entry.key.id, default: .none].gitEmail = entry.email }
            return result
        }
    }
}
