// `ca create`'s work: a new key for the CA, its private half in the vault and the CA in the
// database (CredentialStore orders the two).
import HostStore
import KeyFormats

public enum AuthorityCreation {
    /// Creates CA `name` (checked already: CAName) with a new key of `type`.
    public static func create(name: String, type: KeyGenerationType, workspace: Workspace) throws -> StoredAuthority {
        let ctx = try CAContext.open(workspace)
        if try (ctx.reading { try ctx.store.find(name: name) }) != nil { throw CertificateAuthorityRefusal.nameTaken(name) }
        let key: PrivateKey
        do {
            key = try PrivateKeyGenerator.generate(type, bits: nil, comment: name)
        } catch let e as KeyFormatError {
            throw KeysRefusal.cannotGenerate(reason: e.reason)
        }
        return try ctx.credentials.createAuthority(key, name: name)
    }
}
