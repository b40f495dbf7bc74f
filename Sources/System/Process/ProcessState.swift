// Whether a process still runs, from its state in /proc/PID/stat: a zombie (ended, not yet
// reaped by its parent) or a process that is gone does not. kill(pid, 0) cannot tell a
// zombie from a running process.
#if canImport(Glibc)
import Glibc
#endif

public enum ProcessState {
    /// True while `pid` exists and has not ended.
    public static func isRunning(_ pid: Int32) -> Bool {
        // The state is the first field after the command name: "PID (comm) S ...".
        guard let state = statFields(pid)?.first?.first else { return false }
        return state != UInt8(ascii: "Z") && state != UInt8(ascii: "X")
    }

    /// The fields of `/proc/PID/stat` after the command name (proc(5)): the first is field 3
    /// (the state), so field N is at index N - 3. The command name may hold spaces and
    /// parentheses, so the fields start after its last ')'. nil when the process is gone.
    public static func statFields(_ pid: Int32) -> [ArraySlice<UInt8>]? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let bytes = try? FileDescriptor(fd).readPrefix(limit: 2048),
              let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        return bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
    }

    /// Field `n` of `/proc/PID/stat` as a number (n ≥ 3).
    static func statNumber<N: FixedWidthInteger>(_ n: Int, of pid: Int32, as: N.Type = N.self) -> N? {
        guard let fields = statFields(pid), fields.count > n - 3 else { return nil }
        return N(String(decoding: fields[n - 3], as: UTF8.self))
    }
}

extension ProcessState {
    /// When `pid` started, in clock ticks after boot (`/proc/PID/stat` field 22, proc(5));
    /// with the pid it names one process, whose pid a later process cannot take while it runs.
    public static func startTime(_ pid: Int32) -> UInt64? {
        statNumber(22, of: pid)
    }
}
