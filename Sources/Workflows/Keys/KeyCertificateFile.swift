// Reading a certificate file (`*-cert.pub`, as ssh-keygen -s writes it) for `keys cert add`
// and `keys import` (which takes `PATH-cert.pub` beside the key when it certifies it).
#if canImport(Glibc)
import Glibc
#endif
import KeyFormats
import System

public enum KeyCertificateFile {
    /// Larger than any certificate line (a certificate of a 16384-bit RSA key by such a
    /// CA, with many principals, is well under it).
    public static let maxSize = 256 * 1024

    public struct Read {
        public let certificate: Certificate
        public let comment: String
    }

    /// The certificate in `path`: a missing or unreadable file is exit 1, one that holds
    /// no certificate is refused.
    public static func read(_ path: String) throws -> Read {
        let bytes: [UInt8]
        do {
            let (fd, _) = try RegularFile.open(path)
            defer { close(fd) }
            bytes = try FileDescriptor(fd).readToEnd(limit: maxSize)
        } catch {
            throw KeysRefusal.certificateUnreadable(path: path, reason: "\(error)")
        }
        let content: PublicKeyFile.Content
        do { content = try PublicKeyFile.parse(bytes) } catch let e as KeyFormatError {
            throw KeysRefusal.notACertificate(path: path, reason: e.reason)
        }
        guard case .certificate(let certificate, let comment) = content else {
            throw KeysRefusal.publicKeyNotCertificate(path: path)
        }
        return Read(certificate: certificate, comment: PrintableText.clean(comment))
    }

    /// `privateKeyPath-cert.pub` (ssh-keygen's name for a key's certificate), or nil when
    /// there is no such file.
    public static func beside(_ privateKeyPath: String) -> String? {
        let path = privateKeyPath + "-cert.pub"
        var info = stat()
        return lstat(path, &info) == 0 ? path : nil
    }
}
