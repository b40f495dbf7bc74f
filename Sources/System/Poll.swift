// poll(2) that a signal does not cut short: an interrupted wait goes on for the time left.
#if canImport(Glibc)
import Glibc
#endif

public enum Poll {
    /// Waits for events on the first `count` (default: all) of `fds`, at most
    /// `timeoutMilliseconds` (negative: no limit). Returns how many are ready, 0 on timeout.
    public static func wait(_ fds: inout [pollfd], count: Int? = nil, timeoutMilliseconds: Int32) throws(Errno) -> Int {
        let n = min(count ?? fds.count, fds.count)
        let deadline = timeoutMilliseconds >= 0 ? Monotonic.milliseconds() + Int64(timeoutMilliseconds) : nil
        var timeout = timeoutMilliseconds
        while true {
            let ready = fds.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t(n), timeout) }
            if ready >= 0 { return Int(ready) }
            guard errno == EINTR else { throw Errno.current }
            if let deadline { timeout = Int32(clamping: max(0, deadline - Monotonic.milliseconds())) }
        }
    }

    /// One descriptor: true when an event came within the time.
    public static func wait(_ fd: Int32, events: Int16, timeoutMilliseconds: Int32) throws(Errno) -> Bool {
        var fds = [pollfd(fd: fd, events: events, revents: 0)]
        return try wait(&fds, timeoutMilliseconds: timeoutMilliseconds) > 0
    }
}
