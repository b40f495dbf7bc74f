// `keys cert add` and `keys cert remove`'s work: a key's OpenSSH certificate read from its
// file and attached when it certifies the key and verifies (KeyCertificates), or detached.
import HostStore
import KeyFormats

public enum KeyCertificateAttachment {
    public struct Attached {
        /// The key as stored now.
        public let key: StoredKey
        public let certificate: Certificate
        /// The certificate the key had before, if any.
        public let replaced: Certificate?
    }

    /// Attaches the certificate in `file` to key `name`.
    public static func attach(file: String, to name: String, workspace: Workspace) throws -> Attached {
        let read = try KeyCertificateFile.read(file)
        let ctx = try KeysContext.open(workspace)
        let key = try ctx.key(named: name)
        let replaced: Certificate?
        do {
            replaced = try KeysRefusal.database(.attachCertificate) {
                try KeyCertificates(database: ctx.database).attach(read.certificate, comment: read.comment, to: key)
            }
        } catch let refusal as KeyCertificateRefusal {
            throw KeysRefusal.certificateRefused(refusal, file: file, key: key.name, fingerprint: key.fingerprint)
        }
        return Attached(key: try ctx.key(named: key.name), certificate: read.certificate, replaced: replaced)
    }

    /// Detaches the certificate of key `name`: the key as stored now.
    public static func remove(from name: String, workspace: Workspace) throws -> StoredKey {
        let ctx = try KeysContext.open(workspace)
        let key = try ctx.key(named: name)
        let removed = try KeysRefusal.database(.removeCertificate) { try KeyCertificates(database: ctx.database).remove(from: key) != nil }
        guard removed else { throw KeysRefusal.noCertificate(key.name) }
        return try ctx.key(named: key.name)
    }
}
