// Reading a certificate file (`*-cert.pub`, as ssh-keygen -s writes it) for `keys cert add`
// and `keys import` (which takes `PATH-cert.pub` beside the key when it certifies it).
#if canImport(Glibc)
import Glibc
#endif
import KeyFormats
import System

enum KeyCertificateFile {
    /// Larger than any certificate line (a certificate of a 16384-bit RSA key by such a
    /// CA, with many principals, is well under it).
    static let maxSize = 256 * 1024

    struct Read {
        let certificate: Certificate
        let comment: String
    }

    /// The certificate in `path`: a missing or unreadable file is exit 1, one that holds
    /// no certificate exit 5.
    static func read(_ path: String) throws -> Read {
        let shown = "'\(path)'"
        let bytes: [UInt8]
        do {
            let (fd, _) = try RegularFile.open(path)
            defer { close(fd) }
            bytes = try FileDescriptor(fd).readToEnd(limit: maxSize)
        } catch {
            throw CLIError.failure("cannot read \(shown): \(error)", hint: "Give the certificate file (usually KEY-cert.pub, as ssh-keygen -s writes it).")
        }
        let content: PublicKeyFile.Content
        do { content = try PublicKeyFile.parse(bytes) } catch let e as KeyFormatError {
            throw CLIError.rejected("\(shown) holds no certificate: \(e.reason)",
                                    hint: "Give the certificate file (usually KEY-cert.pub, as ssh-keygen -s writes it).")
        }
        guard case .certificate(let certificate, let comment) = content else {
            throw CLIError.rejected("\(shown) is a public key, not a certificate",
                                    hint: "Give the certificate file (usually KEY-cert.pub, as ssh-keygen -s writes it).")
        }
        return Read(certificate: certificate, comment: PrintableText.clean(comment))
    }

    /// `privateKeyPath-cert.pub` (ssh-keygen's name for a key's certificate), or nil when
    /// there is no such file.
    static func beside(_ privateKeyPath: String) -> String? {
        let path = privateKeyPath + "-cert.pub"
        var info = stat()
        return lstat(path, &info) == 0 ? path : nil
    }
}
