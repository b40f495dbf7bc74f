// A known_hosts file read whole (or stdin for "-"), through System's descriptors; a file that
// cannot be read, or one over 1 GiB, is a KnownHostsRefusal.
#if canImport(Glibc)
import Glibc
#endif
import System

public enum FileBytes {
    public static let maxSize = 1 << 30

    public static func read(_ path: String) throws -> [UInt8] {
        let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw KnownHostsRefusal.fileUnreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { if fd != STDIN_FILENO { close(fd) } }
        do { return try FileDescriptor(fd).readToEnd(limit: maxSize) } catch {
            switch error {
            case .system(let why): throw KnownHostsRefusal.fileUnreadable(path: path, reason: "\(why)")
            case .tooLong: throw KnownHostsRefusal.fileTooLarge(path: path)
            }
        }
    }
}
