// `ca revoke` and `ca krl`'s work: a revocation recorded for a CA, and the CA's key
// revocation list (OpenSSH's KRL) built from every revocation and written to a file.
import HostStore
import KeyFormats
import System

public enum AuthorityRevocations {
    /// Records `what` as revoked by CA `name`: whether it changed anything, and the CA after.
    public static func revoke(_ what: AuthorityRevocation.What, authority name: String,
                              workspace: Workspace) throws -> (changed: Bool, authority: StoredAuthority) {
        let ctx = try CAContext.open(workspace)
        let changed = try ctx.reading(.recordRevocation) { try ctx.store.revoke(authority: name, what) }
        let ca = try ctx.reading { try ctx.store.existing(name) }
        return (changed, ca)
    }

    /// The KRL of CA `name` (which must exist) as of `now`.
    public static func list(authority name: String, workspace: Workspace,
                            now: UInt64 = CertificateValidity.now()) throws -> (authority: StoredAuthority, list: KeyRevocationList) {
        let (ctx, ca) = try CAContext.existing(workspace, named: name)
        return (ca, try ctx.reading { try ctx.store.revocationList(authority: ca.name, now: now) })
    }

    /// Writes `bytes` (an encoded KRL) to `path`, replacing it atomically (mode 0644).
    public static func write(_ bytes: [UInt8], to path: String) throws {
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(path, bytes: bytes, mode: 0o644, replace: true)
        } catch {
            throw KeysRefusal.revocationListNotWritten(path: path, error)
        }
    }
}
