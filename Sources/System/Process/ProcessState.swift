// Whether a process still runs, from its state in /proc/PID/stat: a zombie (ended, not yet
// reaped by its parent) or a process that is gone does not. kill(pid, 0) cannot tell a
// zombie from a running process.
#if canImport(Glibc)
import Glibc
#endif

public enum ProcessState {
    /// True while `pid` exists and has not ended.
    public static func isRunning(_ pid: Int32) -> Bool {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard let bytes = try? FileDescriptor(fd).readPrefix(limit: 1024),
              let close = bytes.lastIndex(of: UInt8(ascii: ")")), close + 2 < bytes.count else { return false }
        // The state is the field after the command name: "PID (comm) S ...".
        let state = bytes[close + 2]
        return state != UInt8(ascii: "Z") && state != UInt8(ascii: "X")
    }
}
