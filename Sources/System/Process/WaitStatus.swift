// How a child ended, from waitpid(2)'s status word, and waiting for it.
#if canImport(Glibc)
import Glibc
#endif

public enum WaitStatus: Sendable, Equatable {
    case exited(Int32)
    case signaled(Int32)

    /// Decodes a status word (WIFEXITED/WEXITSTATUS/WTERMSIG; stopped children are not
    /// waited for here).
    public init(raw status: Int32) {
        self = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
    }

    /// The shell's convention: the exit status, or 128 + the signal that ended it.
    public var exitCode: Int32 {
        switch self {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }

    /// Waits for `pid` to end.
    public static func wait(_ pid: pid_t) -> WaitStatus {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return WaitStatus(raw: status)
    }

    /// How `pid` ended, or nil while it runs (WNOHANG).
    public static func ifEnded(_ pid: pid_t) -> WaitStatus? {
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { return WaitStatus(raw: status) }
            if r < 0 && errno == EINTR { continue }
            return nil
        }
    }
}
