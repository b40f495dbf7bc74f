// Reading a key file and writing an exported one (0600, never over an existing file).
#if canImport(Glibc)
import Glibc
#endif
import System
import SecureMemory

public enum KeyFiles {
    /// Largest key file read (a 16384-bit RSA key in PEM is about 13 KiB).
    public static let maxSize = 1 << 20

    /// The bytes of `path` (`-` = standard input), read with read(2) straight into secure
    /// memory: a private key file is a secret. The buffer starts at the file's size (when
    /// fstat knows it) and grows by moving to a bigger secure buffer (SecretBytes.grown),
    /// so no copy of the key is left behind in ordinary memory.
    public static func read(_ path: String) throws -> SecretBytes {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(input: path) } catch { throw KeysRefusal.unreadable(path: path, reason: "\(error)") }
        defer { fd.closeUnlessStandard() }
        return try read(fd: fd.rawValue, path: path)
    }

    /// The rest of `fd` (named `path` in errors) into secure memory; the caller opened it
    /// and closes it.
    public static func read(fd: Int32, path: String) throws -> SecretBytes {
        var info = stat()
        let size = fstat(fd, &info) == 0 && info.st_size > 0 ? min(Int(info.st_size), maxSize) + 1 : 16384
        var buffer = SecretBytes(count: size)
        var length = 0
        while true {
            if length == buffer.count {
                guard length <= maxSize else { throw KeysRefusal.keyFileTooLarge(path: path) }
                buffer = buffer.grown(to: min(buffer.count * 2, maxSize + 1), keeping: length)
            }
            let n: Int
            do { n = try buffer.withUnsafeMutableBytes { try FileDescriptor(fd).read(into: UnsafeMutableRawBufferPointer(rebasing: $0[length...])) } } catch {
                if (error as? Errno)?.code == EISDIR { throw KeysRefusal.isAFolder(path: path) }
                throw KeysRefusal.unreadable(path: path, reason: "\(error)")
            }
            if n == 0 { break }
            length += n
        }
        guard length <= maxSize else { throw KeysRefusal.keyFileTooLarge(path: path) }
        return buffer.slice(0..<length)
    }

    /// Writes `secret` to a new file `path` with mode 0600, atomically (AtomicFile): an
    /// existing file is refused and never touched.
    public static func writeNew(_ path: String, _ secret: SecretBytes) throws {
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(path, mode: 0o600) { fd in writeAll(fd, secret) }
        } catch .exists {
            throw KeysRefusal.outputExists(path: path)
        } catch .io(let why) {
            throw KeysRefusal.notWritten(reason: why)
        }
    }

    /// Refuses an --output file that exists, before anything is asked or computed.
    public static func refuseExisting(_ path: String) throws {
        if AtomicFile.exists(path) { throw KeysRefusal.outputExists(path: path) }
    }

    /// Writes the secret straight from secure memory (no String copy).
    @discardableResult
    public static func writeAll(_ fd: Int32, _ secret: SecretBytes) -> Bool {
        secret.withUnsafeBytes { (try? FileDescriptor(fd).writeAll($0)) != nil }
    }

    /// The default key name for a file: its base name without .pem/.ppk/.key.
    public static func defaultName(for path: String) -> String {
        var base = String(path.split(separator: "/", omittingEmptySubsequences: true).last ?? "")
        for ext in [".pem", ".ppk", ".key"] where base.hasSuffix(ext) && base.count > ext.count {
            base.removeLast(ext.count)
            break
        }
        return base
    }
}
