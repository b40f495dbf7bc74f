// A named pipe (FIFO) in a private folder, for a program that takes a path where a
// descriptor cannot be handed over (ssh's `-E` log file: ssh closes every descriptor it
// inherits before it opens the path).
#if canImport(Glibc)
import Glibc
#endif

public enum NamedPipe {
    /// Makes the FIFO at `path` (0600; never an existing file) and opens it for reading,
    /// close-on-exec and non-blocking. It is opened read-write, so the open does not wait for
    /// a writer and a writer that comes and goes never ends it: the reader stops when it
    /// chooses, after draining what is left.
    public static func makeAndOpen(_ path: String) throws(Errno) -> Int32 {
        guard mkfifo(path, 0o600) == 0 else { throw Errno.current }
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            let error = Errno.current
            unlink(path)
            throw error
        }
        return fd
    }
}
