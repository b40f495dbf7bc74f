// Running a child with stdin on /dev/null and collecting what it writes, within bounds:
// both pipes are read as the child writes (so neither fills and stalls it), the first
// `limit` bytes of each are kept and the rest read and dropped.
#if canImport(Glibc)
import Glibc
#endif

public enum CapturedProcess {
    public struct Result: Sendable {
        public let status: WaitStatus
        public let stdout: [UInt8]
        public let stderr: [UInt8]
        /// True when the child was killed (SIGKILL) for running past the time it was given.
        public var timedOut = false
    }

    /// Runs `path argv` to its end with `options` (its file actions come after the ones
    /// that set up stdin, stdout and stderr). Given `timeoutMilliseconds`, a child whose
    /// pipes are still open then is killed (`timedOut`).
    public static func run(_ path: String, _ argv: [String], options: Spawn.Options = Spawn.Options(),
                           limit: Int, timeoutMilliseconds: Int64? = nil) throws(Errno) -> Result {
        let out = try UnixPipe()
        let err: UnixPipe
        do { err = try UnixPipe() } catch { out.close(); throw error }
        var options = options
        options.fileActions = Spawn.Options.nullInput() + [.duplicate(out.writeEnd, to: STDOUT_FILENO),
                                                           .duplicate(err.writeEnd, to: STDERR_FILENO)] + options.fileActions
        let pid: pid_t
        do { pid = try Spawn.start(path, argv, options) } catch { out.close(); err.close(); throw error }
        close(out.writeEnd)
        close(err.writeEnd)
        var collected: [[UInt8]] = [[], []]
        var fds = [pollfd(fd: out.readEnd, events: Int16(POLLIN), revents: 0), pollfd(fd: err.readEnd, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65536)
        var open = 2
        let deadline = timeoutMilliseconds.map { Monotonic.milliseconds() + $0 }
        var timedOut = false
        while open > 0 {
            var wait: Int32 = -1
            if let deadline {
                let left = deadline - Monotonic.milliseconds()
                guard left > 0 else { timedOut = true; break }
                wait = Int32(min(left, Int64(Int32.max)))
            }
            guard let ready = try? Poll.wait(&fds, timeoutMilliseconds: wait) else { break }
            if ready == 0 { continue }
            for i in 0..<2 where fds[i].fd >= 0 && fds[i].revents != 0 {
                let got = (try? buffer.withUnsafeMutableBytes { b in try FileDescriptor(fds[i].fd).read(into: b) }) ?? 0
                if got == 0 {
                    close(fds[i].fd)
                    fds[i].fd = -1
                    open -= 1
                } else if collected[i].count < limit {
                    collected[i] += buffer[0..<min(got, limit - collected[i].count)]
                }
            }
        }
        for f in fds where f.fd >= 0 { close(f.fd) }
        if timedOut { kill(pid, SIGKILL) }
        var result = Result(status: WaitStatus.wait(pid), stdout: collected[0], stderr: collected[1])
        result.timedOut = timedOut
        return result
    }

    /// A child started now and read later (it runs while the caller does other work).
    public struct Running: Sendable {
        public let pid: pid_t
        /// The read end of the child's stderr.
        let fd: Int32

        /// What the child wrote to stderr (its first `limit` bytes: the rest is not read),
        /// once it has ended.
        public func finish(limit: Int) -> (status: WaitStatus, stderr: [UInt8]) {
            let bytes = (try? FileDescriptor(fd).readPrefix(limit: limit)) ?? []
            close(fd)
            return (WaitStatus.wait(pid), bytes)
        }
    }

    /// Starts `path argv` with stdin and stdout on /dev/null and stderr to a pipe.
    public static func startCapturingStderr(_ path: String, _ argv: [String]) throws(Errno) -> Running {
        let err = try UnixPipe()
        let options = Spawn.Options(fileActions: Spawn.Options.nullInput(output: true) + [.duplicate(err.writeEnd, to: STDERR_FILENO)])
        let pid: pid_t
        do { pid = try Spawn.start(path, argv, options) } catch { err.close(); throw error }
        close(err.writeEnd)
        return Running(pid: pid, fd: err.readEnd)
    }
}
