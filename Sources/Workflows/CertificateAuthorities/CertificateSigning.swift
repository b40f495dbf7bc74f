// `ca sign`'s work: the subject key (a public key line, or a saved key's), the CA's private
// key from the vault, the next serial recorded with the certificate it signs
// (CertificateAuthorityStore.issue), and the line written to a file when asked.
import Credentials
import HostStore
import KeyFormats
import System
import Vault

public enum CertificateSigning {
    /// The key to certify.
    public enum Subject {
        /// A public key line (a .pub file's).
        case line(PublicKeyLine)
        /// A saved key, by name.
        case key(String)
    }

    public struct Request {
        public var subject: Subject
        public var role: Certificate.Role
        public var identity: String
        public var principals: [String]
        public var window: (after: UInt64, before: UInt64)
        public var options: CertificateOptions
        /// Where the certificate line is written (replaced atomically, mode 0644); nil: nowhere.
        public var output: String?

        public init(subject: Subject, role: Certificate.Role, identity: String, principals: [String],
                    window: (after: UInt64, before: UInt64), options: CertificateOptions, output: String?) {
            self.subject = subject
            self.role = role
            self.identity = identity
            self.principals = principals
            self.window = window
            self.options = options
            self.output = output
        }
    }

    public struct Signed {
        public let authority: StoredAuthority
        public let issued: IssuedCertificate
        /// The certificate line, with the subject key's comment.
        public let line: String
    }

    /// Signs `request` with certificate authority `name`.
    public static func sign(_ request: Request, authority name: String, workspace: Workspace) throws -> Signed {
        let ctx = try CAContext.open(workspace)
        let subject = try subjectLine(request.subject, ctx)
        let ca = try ctx.reading { try ctx.store.existing(name) }
        let caKey: PrivateKey
        do {
            guard let key = try KeysRefusal.vault(.readAuthorityKey(authority: ca.name), { try ctx.credentials.authorityKey(ca) }) else {
                throw KeysRefusal.authorityKeyMissing(ca.name)
            }
            caKey = key
        } catch let e as KeyFormatError {
            throw KeysRefusal.authorityKeyDamaged(ca.name, reason: e.reason)
        }
        let issued: IssuedCertificate
        do {
            issued = try ctx.store.issue(authority: ca.name) { _, serial in
                try CertificateEncoder.sign(CertificateFields(key: subject.key, role: request.role, serial: serial, keyID: request.identity,
                                                              principals: request.principals, validAfter: request.window.after,
                                                              validBefore: request.window.before, options: request.options), with: caKey)
            }
        } catch let e as KeyFormatError {
            throw KeysRefusal.cannotCertify(reason: e.reason)
        } catch let e as HostStoreError where e.kind == .database {
            throw KeysRefusal.database(e, .recordCertificate)
        }
        let line = issued.certificate.line(comment: subject.comment)
        if let output = request.output {
            do throws(AtomicFile.Failure) {
                try AtomicFile.write(output, bytes: Array((line + "\n").utf8), mode: 0o644, replace: true)
            } catch {
                throw KeysRefusal.certificateNotWritten(authority: ca.name, serial: issued.serial, path: output, error)
            }
        }
        return Signed(authority: ca, issued: issued, line: line)
    }

    private static func subjectLine(_ subject: Subject, _ ctx: CAContext) throws -> PublicKeyLine {
        switch subject {
        case .line(let line):
            return line
        case .key(let name):
            let stored = try ctx.reading(.readKeys) { try ctx.credentials.keys.find(name: name) }
            guard let stored else { throw KeysRefusal.keyNotFound(name) }
            return PublicKeyLine(key: try stored.publicKey, comment: stored.comment)
        }
    }
}
