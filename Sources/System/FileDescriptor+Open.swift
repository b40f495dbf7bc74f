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

    /// The input a user names as a path: standard input for "-", else `path` opened for
    /// reading. Close it with `closeUnlessStandard()`.
    public static func open(input path: String) throws(Errno) -> FileDescriptor {
        path == "-" ? .standardInput : try open(forReading: path)
    }

    /// close(2) unless this is standard input, output or error.
    public func closeUnlessStandard() {
        if rawValue > STDERR_FILENO { close() }
    }

    /// close(2); the descriptor must not be used after.
    public func close() {
        _ = Glibc.close(rawValue)
    }
}
