// The public key `ca sign --public-key` and `ca revoke --public-key` read: a plain key's
// .pub line from a regular file (SSHConfigIdentityKeys.readPublicFile) or standard input;
// a certificate is refused.
#if canImport(Glibc)
import Glibc
#endif
import KeyFormats
import System

public enum PublicKeyLineFile {
    /// The public key line in `path` (`-`: standard input).
    public static func read(_ path: String) throws -> PublicKeyLine {
        let bytes: [UInt8]
        if path == "-" {
            do { bytes = try FileDescriptor(STDIN_FILENO).readToEnd(limit: SSHConfigIdentityKeys.maxPublicSize) } catch {
                throw KeysRefusal.standardInputUnreadable
            }
        } else {
            switch SSHConfigIdentityKeys.readPublicFile(path) {
            case .success(let b): bytes = b
            case .failure(let why): throw KeysRefusal.unreadable(path: path, reason: "\(why)")
            }
        }
        let content: PublicKeyFile.Content
        do { content = try PublicKeyFile.parse(bytes) } catch let e as KeyFormatError {
            throw KeysRefusal.notAPublicKey(path: path, reason: e.reason)
        }
        guard case .key(let line) = content else { throw KeysRefusal.certificateNotPublicKey(path: path) }
        return line
    }
}
