// The process's controlling terminal (/dev/tty), opened to ask on it when stdin and stderr
// are someone else's (ssh's pipes): read and write, never made the controlling terminal of
// a process that has none (O_NOCTTY), not inherited by a program it starts (O_CLOEXEC).
#if canImport(Glibc)
import Glibc
#endif

public enum ControllingTerminal {
    public static let path = "/dev/tty"

    /// The controlling terminal, open for reading and writing; nil when the process has none
    /// (the caller closes it).
    public static func open() -> FileDescriptor? {
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        return fd >= 0 ? FileDescriptor(fd) : nil
    }
}
