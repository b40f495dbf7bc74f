// Opening a file that a configuration names (an Include, an IdentityFile) without letting
// it hold the command: open(2) blocks on a FIFO until a writer comes, and on some devices;
// a terminal could become the controlling one. So the file is opened with O_NONBLOCK and
// O_NOCTTY (an open that would block returns at once), checked with fstat, and anything but
// a regular file is refused before a single read.
#if canImport(Glibc)
import Glibc
#endif

public enum RegularFile {
    /// Why a path cannot be read as a regular file.
    public enum Refusal: Error, CustomStringConvertible {
        /// open(2) or fstat(2) failed.
        case system(String)
        /// It exists but is not a regular file; its `st_mode`.
        case notRegular(mode_t)

        public var description: String {
            switch self {
            case .system(let why): why
            case .notRegular(let mode): "it is \(RegularFile.kind(mode)), not a regular file"
            }
        }
    }

    /// A descriptor for `path` (the caller closes it) and its status, when it is a regular
    /// file. O_NONBLOCK changes nothing for the reads of a regular file.
    public static func open(_ path: String) throws(Refusal) -> (fd: Int32, info: stat) {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw .system(String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw .system(why)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .notRegular(info.st_mode)
        }
        return (fd, info)
    }

    public static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }
}
