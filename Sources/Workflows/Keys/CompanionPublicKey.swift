// The `.pub` file ssh-keygen writes beside a private key (`PATH.pub`): where a key's
// comment is kept when the private key format has no room for one (PEM, PKCS#8), so
// `keys import` takes the comment from there.
#if canImport(Glibc)
import Glibc
#endif
import KeyFormats
import System

public enum CompanionPublicKey {
    /// Larger than any public key line (a 16384-bit RSA key is about 2.8 KiB).
    public static let maxSize = 64 * 1024

    /// The comment of `privateKeyPath + ".pub"` when that file is a public key line for
    /// `key`; nil when there is no such file, it holds another key, or it has no comment.
    /// Only a regular file is read (RegularFile: never a FIFO or a device).
    public static func comment(beside privateKeyPath: String, for key: PublicKey) -> String? {
        guard let (fd, _) = try? RegularFile.open(privateKeyPath + ".pub") else { return nil }
        defer { close(fd) }
        guard let bytes = try? FileDescriptor(fd).readToEnd(limit: maxSize),
              let text = String(validating: bytes, as: UTF8.self),
              let line = try? PublicKeyLine.parse(text), line.key == key else { return nil }
        let comment = PrintableText.clean(line.comment)
        return comment.isEmpty ? nil : comment
    }
}
