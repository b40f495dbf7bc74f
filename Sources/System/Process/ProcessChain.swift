// Who a process is, as /proc tells any process of the same user: its parent
// (/proc/PID/stat), its executable (/proc/PID/exe) and its command line
// (/proc/PID/cmdline), and the chain of its ancestors (proc(5)). What the agent shows when
// it asks whether a client may sign, and what its log records.
#if canImport(Glibc)
import Glibc
#endif

/// One process of a chain.
public struct RunningProcess: Sendable, Equatable {
    public let pid: Int32
    /// The executable's path (/proc/PID/exe); nil when it cannot be read (the process is
    /// gone or not dumpable). Never the command line's first word: a process names itself.
    public let executable: String?
    /// The command line's words (empty for a kernel thread or a process that is gone).
    public let arguments: [String]

    public init(pid: Int32, executable: String?, arguments: [String]) {
        self.pid = pid
        self.executable = executable
        self.arguments = arguments
    }
}

public enum ProcessChain {
    /// Longest command line read, in bytes (the rest is left out).
    public static let commandLineLimit = 4_096

    /// `pid` and up to `ancestors` of its ancestors, the client first; it stops at pid 1
    /// and at a process that is gone.
    public static func chain(from pid: Int32, ancestors: Int) -> [RunningProcess] {
        var result: [RunningProcess] = []
        var current = pid
        while current > 0 {
            let arguments = commandLine(of: current)
            let executable = ProcessIdentity.executable(of: current)
            if arguments.isEmpty && executable == nil { break }
            result.append(RunningProcess(pid: current, executable: executable, arguments: arguments))
            guard result.count <= ancestors, let next = parent(of: current), next > 1 else { break }
            current = next
        }
        return result
    }

    /// The parent of `pid` (`/proc/PID/stat`, the field after the command name), nil when
    /// the process is gone or the file unreadable.
    public static func parent(of pid: Int32) -> Int32? {
        // "PID (COMM) STATE PPID ...": the parent is field 4.
        ProcessState.statNumber(4, of: pid)
    }

    /// The executable of a process (`/proc/PID/exe`); for a process that made itself
    /// non-dumpable (gnome-keyring-daemon, KeePassXC, hostbook), whose exe link only root may
    /// read, the first word of its command line, which everyone may read. A name for the
    /// vault's checks of its own daemons, never an identity: what the process says of itself
    /// (the agent's approvals take ProcessIdentity, and `chain` shows /proc/PID/exe only).
    public static func executable(of pid: Int32) -> String? {
        if let exe = ProcessIdentity.executable(of: pid) { return exe }
        let first = commandLine(of: pid).first ?? ""
        return first.isEmpty ? nil : first
    }

    /// The words of `/proc/PID/cmdline` (NUL-separated), up to `commandLineLimit` bytes.
    public static func commandLine(of pid: Int32) -> [String] {
        guard let bytes = read("/proc/\(pid)/cmdline", limit: commandLineLimit), !bytes.isEmpty else { return [] }
        var words = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if bytes.last == 0 { words.removeLast() }
        return words
    }

    /// The names of the variables in `/proc/PID/environ` (only the names: values may be
    /// secret); nil when it cannot be read (another user's process, or one that is gone).
    public static func environmentNames(of pid: Int32) -> Set<String>? {
        guard let bytes = read("/proc/\(pid)/environ", limit: 1 << 20) else { return nil }
        var names = Set<String>()
        for entry in bytes.split(separator: 0) {
            if let equals = entry.firstIndex(of: UInt8(ascii: "=")) { names.insert(String(decoding: entry[..<equals], as: UTF8.self)) }
        }
        return names
    }

    private static func read(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return try? FileDescriptor(fd).readPrefix(limit: limit)
    }
}
