// An exclusive lock between processes: flock(2) on a file of this user, held until the
// FileLock is released (closing the descriptor releases it, as does the process's end).
#if canImport(Glibc)
import Glibc
#endif

public final class FileLock {
    private let fd: Int32

    /// Opens `path` (created 0600; a link is not followed) and waits for its lock.
    public init(path: String) throws(Errno) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw Errno.current }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let error = Errno.current
                close(fd)
                throw error
            }
        }
        self.fd = fd
    }

    deinit { close(fd) }
}
