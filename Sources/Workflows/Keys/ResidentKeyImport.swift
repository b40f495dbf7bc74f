// `keys import-resident`'s work: the resident credentials a security key gave (each a key
// handle) stored as keys of their own, named after their application, as `ssh-keygen -K`
// writes them to files.
import Credentials
import HostStore
import KeyFormats
import SecurityKeys

public enum ResidentKeyImport {
    /// Stores each key not stored already: the keys stored, and how many were skipped.
    public static func store(_ keys: [PrivateKey], prefix: String, _ ctx: KeysContext) throws -> (stored: [StoredKey], skipped: Int) {
        var stored: [StoredKey] = []
        var skipped = 0
        for var key in keys {
            if try ctx.store.find(fingerprint: key.publicKey.sha256Fingerprint) != nil { skipped += 1; continue }
            let name = try ctx.store.freeName(prefix + baseName(key))
            try KeyName.validate(name)
            key.comment = name
            stored.append(try ctx.credentials.store(key, name: name, format: "resident").key)
        }
        return (stored, skipped)
    }

    /// ssh:NAME → NAME; ssh: → security-key.
    public static func baseName(_ key: PrivateKey) -> String {
        guard let handle = SecurityKeyHandle(key) else { return "security-key" }
        let rest = String(handle.application.dropFirst("ssh:".count))
        return rest.isEmpty ? "security-key" : rest
    }
}
