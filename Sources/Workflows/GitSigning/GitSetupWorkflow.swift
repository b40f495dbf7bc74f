// `git setup`'s work around GitSigningSetup: whether a key saved hosts log in with should be
// offered a dedicated signing key instead (and that key's free name), where the public key
// files are written (GitSigningSetup does the setup). The executable reads the options,
// asks, generates the key (the keys commands' generator) and prints.
import HostStore
import System

public enum GitSetupWorkflow {
    /// The name offered for a dedicated signing key.
    public static let offeredKeyName = "git-signing"

    /// For an unrestricted `key` that saved hosts log in with: the name a dedicated signing
    /// key would take (`git-signing`, else `git-signing-2`, ...) and those hosts; nil when the
    /// key itself can be restricted to git (no host uses it) or is restricted already.
    public static func dedicatedKeyOffer(database: HostDatabase, key: StoredKey) throws -> (name: String, hosts: [String])? {
        let hosts = try database.hostsLoggingIn(withKey: key.name)
        guard !hosts.isEmpty, try KeyNamespaces(database: database).namespaces(of: key).isEmpty else { return nil }
        return (try KeyStore(database: database).freeName(offeredKeyName), hosts)
    }

    /// Where the signing keys' public key files are written: `git-signing` in the data
    /// folder (the database's folder).
    public static func keyFolder(databasePath: String) -> String {
        let db = ExecutablePath.absolute(databasePath)
        return String(db[..<(db.lastIndex(of: "/") ?? db.startIndex)]) + "/git-signing"
    }
}
