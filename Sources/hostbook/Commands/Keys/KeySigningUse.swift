// What a key may sign beyond ssh authentication, as `keys show` / `keys list` present it:
// the SSHSIG namespaces it is restricted to (KeyNamespaces) and the email it signs git
// commits as (GitSigningKeys).
import HostStore

struct KeySigningUse {
    /// Sorted; empty: not restricted.
    var namespaces: [String] = []
    /// nil: not set up for git.
    var gitEmail: String?

    static let none = KeySigningUse()

    static func load(_ database: HostDatabase, _ key: StoredKey) throws -> KeySigningUse {
        do {
            return KeySigningUse(namespaces: try KeyNamespaces(database: database).namespaces(of: key),
                                 gitEmail: try GitSigningKeys(database: database).email(of: key))
        } catch {
            throw KeysFailure.database(error, "cannot read the keys")
        }
    }

    /// Every key's, by key id (one read each for the whole listing).
    static func all(_ database: HostDatabase) throws -> [Int64: KeySigningUse] {
        do {
            var result: [Int64: KeySigningUse] = [:]
            for (id, namespaces) in try KeyNamespaces(database: database).all() { result[id, default: .none].namespaces = namespaces.sorted() }
            for entry in try GitSigningKeys(database: database).all() { result[entry.key.id, default: .none].gitEmail = entry.email }
            return result
        } catch {
            throw KeysFailure.database(error, "cannot read the keys")
        }
    }
}
