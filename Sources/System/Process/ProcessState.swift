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

extension ProcessState {
    /// When `pid` started, in clock ticks after boot (`/proc/PID/stat` field 22, proc(5));
    /// with the pid it names one process, whose pid a later process cannot take while it runs.
    public static func startTime(_ pid: Int32) -> UInt64? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let bytes = try? FileDescriptor(fd).readPrefix(limit: 1024),
              let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // Fields after the command name start with the state (field 3): starttime is the 20th of them.
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count >= 20 else { return nil }
        return UInt64(String(decoding: fields[19], as: UTF8.self))
    }
}
