// What /proc shows of another process, for tests that act at a moment they can see (a file
// open, a process gone) instead of after a pause.
import Foundation

enum ProcFS {
    /// What the files open in process `pid` are (the targets of /proc/PID/fd); empty once it is gone.
    static func openFiles(of pid: pid_t) -> [String] {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
    }

    /// True while `pid` runs: neither gone nor a zombie waiting for its parent.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[close...].dropFirst(2).first
        return state != "Z" && state != "X"
    }
}
