// Running `ssh-keyscan -T SECONDS -p PORT -- HOST` for `known-hosts scan`: its key lines
// are read from stdout; its stderr (comment banners, getaddrinfo lines) is kept, never
// shown, and used only to say why nothing was found (KeyscanFailure).
#if canImport(Glibc)
import Glibc
#endif
import KeyFormats

enum Keyscan {
    static let defaultTimeout = 5

    /// The distinct plain keys `host` offers on `port`; throws the one-line reason when
    /// there are none.
    static func keys(host: String, port: Int, timeout: Int) throws -> [PublicKey] {
        let started = monotonicSeconds()
        let output = try CapturedProcess.run("ssh-keyscan", ["-T", String(timeout), "-p", String(port), "--", host])
        if output.status == 127 { throw CLIError.failure("ssh-keyscan was not found", hint: "Install the openssh-client package.") }
        var keys: [PublicKey] = []
        for line in output.stdout.split(separator: UInt8(ascii: "\n")) {
            guard case .entry(let l)? = try? KnownHostsLine.parse(bytes: line), l.marker == .none,
                  let entry = try? KnownHostsEntry(line: l), !keys.contains(entry.key) else { continue }
            keys.append(entry.key)
        }
        if keys.isEmpty {
            let failure = KeyscanFailure.diagnose(host: host, port: port, timeout: timeout, elapsed: monotonicSeconds() - started,
                                                  keyscanStderr: String(decoding: output.stderr, as: UTF8.self))
            throw failure.error(host: host, port: port)
        }
        return keys
    }

    static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

/// Runs a program found on PATH with stdin closed, collecting its stdout and stderr.
enum CapturedProcess {
    struct Result {
        let status: Int32
        let stdout: [UInt8]
        let stderr: [UInt8]
    }

    static func run(_ program: String, _ arguments: [String]) throws -> Result {
        var out: [Int32] = [0, 0]
        var err: [Int32] = [0, 0]
        guard pipe(&out) == 0 else { throw CLIError.failure("cannot create a pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&err) == 0 else {
            close(out[0]); close(out[1])
            throw CLIError.failure("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        // The child keeps only its dup2'd copies (dup2 clears FD_CLOEXEC on those).
        for fd in out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, program, &actions, nil, argv, environ)
        close(out[1])
        close(err[1])
        guard rc == 0 else {
            close(out[0]); close(err[0])
            if rc == ENOENT { return Result(status: 127, stdout: [], stderr: []) }
            throw CLIError.failure("cannot run \(program): \(String(cString: strerror(rc)))")
        }
        var collected: [[UInt8]] = [[], []]
        var fds = [pollfd(fd: out[0], events: Int16(POLLIN), revents: 0), pollfd(fd: err[0], events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65536)
        var open = 2
        while open > 0 {
            let n = poll(&fds, 2, -1)
            if n < 0 { if errno == EINTR { continue }; break }
            for i in 0..<2 where fds[i].fd >= 0 && fds[i].revents != 0 {
                let got = buffer.withUnsafeMutableBytes { read(fds[i].fd, $0.baseAddress, $0.count) }
                if got < 0 && errno == EINTR { continue }
                if got <= 0 {
                    close(fds[i].fd)
                    fds[i].fd = -1
                    open -= 1
                } else if collected[i].count < 1 << 26 {
                    collected[i] += buffer[0..<got]
                }
            }
        }
        for f in fds where f.fd >= 0 { close(f.fd) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7f) == 0
        return Result(status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), stdout: collected[0], stderr: collected[1])
    }
}
