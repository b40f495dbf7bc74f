// A known_hosts file read whole (or stdin for "-"), through System's descriptors; a file that
// cannot be read, or one over 1 GiB, is a KnownHostsRefusal.
import System

public enum FileBytes {
    public static let maxSize = 1 << 30

    public static func read(_ path: String) throws -> [UInt8] {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(input: path) } catch { throw KnownHostsRefusal.fileUnreadable(path: path, reason: "\(error)") }
        defer { fd.closeUnlessStandard() }
        do { return try fd.readToEnd(limit: maxSize) } catch {
            switch error {
            case .system(let why): throw KnownHostsRefusal.fileUnreadable(path: path, reason: "\(why)")
            case .tooLong: throw KnownHostsRefusal.fileTooLarge(path: path)
            }
        }
    }
}
