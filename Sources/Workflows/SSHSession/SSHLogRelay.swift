// ssh's log during a `hostbook ssh` session whose target learns its host-key rotation: ssh
// writes it (`-E`) into a FIFO in the session folder, and a thread of hostbook copies each
// line to hostbook's stderr as it comes, reading it for the proof of announced host keys
// (SSHHostKeyProofLog; the forced lines it asks for are not shown). What ssh writes to its
// stderr without logging it (the remote command's stderr, "Connection to HOST closed")
// still goes straight to the terminal.
#if canImport(Glibc)
import Glibc
#endif
import Sessions
import System

public final class SSHLogRelay: @unchecked Sendable {
    public let path: String
    private let fd: Int32
    private let stop: UnixPipe
    private var thread: pthread_t?
    private var log: SSHHostKeyProofLog

    /// Makes the FIFO at `path` and starts copying from it.
    public init(path: String, showsForcedLines: Bool) throws(SSHSessionRefusal) {
        do { fd = try NamedPipe.makeAndOpen(path) } catch {
            throw .fileNotCreated(path: path, reason: "\(error)")
        }
        do { stop = try UnixPipe() } catch {
            close(fd)
            throw .pipeNotCreated(reason: "\(error)")
        }
        self.path = path
        log = SSHHostKeyProofLog(showsForcedLines: showsForcedLines)
        do { thread = try Thread.spawn { [self] in relay() } } catch {
            close(fd)
            stop.close()
            throw .logRelayNotStarted(reason: "\(error)")
        }
    }

    /// Stops after copying what ssh has written (ssh has ended), and returns what the log said.
    public func finish() -> SSHHostKeyProofLog {
        if let thread {
            _ = try? FileDescriptor(stop.writeEnd).writeAll([1])
            Thread.join(thread)
            self.thread = nil
            close(fd)
            stop.close()
        }
        return log
    }

    private func relay() {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var stopping = false
        while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop.readEnd, events: Int16(POLLIN), revents: 0)]
            if !stopping { _ = try? Poll.wait(&fds, timeoutMilliseconds: -1) }
            if fds[1].revents != 0 { stopping = true }
            // Non-blocking: read until the FIFO is empty.
            var drained = false
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 { pending += buffer[..<n]; continue }
                if n < 0 && errno == EINTR { continue }
                drained = true
                break
            }
            pending = show(pending, final: stopping && drained)
            if stopping { return }
        }
    }

    /// Shows each complete line of `bytes` (all of them when `final`) and returns the rest.
    private func show(_ bytes: [UInt8], final: Bool) -> [UInt8] {
        var start = 0
        var out: [UInt8] = []
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            let line = bytes[start...i]
            var text = String(decoding: line.dropLast(), as: UTF8.self)
            if text.hasSuffix("\r") { text.removeLast() }
            if log.read(Substring(text)) { out += line }
            start = i + 1
        }
        if final && start < bytes.count {
            if log.read(Substring(String(decoding: bytes[start...], as: UTF8.self))) { out += bytes[start...] }
            start = bytes.count
        }
        if !out.isEmpty { _ = try? FileDescriptor(STDERR_FILENO).writeAll(out) }
        return Array(bytes[start...])
    }
}
