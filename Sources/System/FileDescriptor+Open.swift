// Opening a path for reading as a descriptor of any kind (a file, a FIFO, /dev/stdin), and
// closing it: for input the user names, read to its end by the caller.
#if canImport(Glibc)
import Glibc
#endif

extension FileDescriptor {
    /// open(2) with O_RDONLY | O_CLOEXEC.
    public static func open(forReading path: String) throws(Errno) -> FileDescriptor {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Errno.current }
        return FileDescriptor(fd)
    }

    /// close(2); the descriptor must not be used after.
    public func close() {
        _ = Glibc.close(rawValue)
    }
}
