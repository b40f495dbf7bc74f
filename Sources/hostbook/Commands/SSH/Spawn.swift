// Starting child processes with posix_spawn (not Foundation's Process: ssh is long-lived,
// closes inherited descriptors, and must get the terminal's signals), and the paths
// hostbook hands to them.
#if canImport(Glibc)
import Glibc
#endif

enum Spawn {
    /// A child whose stderr is being collected.
    struct Capture {
        let pid: pid_t
        let fd: Int32
    }

    /// Starts `path args` with stdin and stdout on /dev/null and stderr to a pipe (`ssh -V`
    /// prints its version there); `collect` reads it.
    static func startCapturingStderr(_ path: String, _ args: [String]) throws -> Capture {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw CLIError.failure("cannot create a pipe: \(String(cString: strerror(errno)))") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        let pid: pid_t
        do { pid = try start(path, [path] + args, environment: nil, actions: &actions, attributes: nil) } catch {
            close(fds[0]); close(fds[1]); throw error
        }
        close(fds[1])
        return Capture(pid: pid, fd: fds[0])
    }

    /// What the child wrote to stderr (at most 64 KiB), once it has exited.
    static func collect(_ capture: Capture) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while out.count < 65536 {
            let n = buffer.withUnsafeMutableBytes { read(capture.fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; break }
            if n == 0 { break }
            out += buffer[0..<n]
        }
        close(capture.fd)
        _ = wait(capture.pid)
        return out
    }

    /// posix_spawn with C copies of argv and the environment (nil: ours).
    static func start(_ path: String, _ argv: [String], environment: [String]?,
                      actions: UnsafePointer<posix_spawn_file_actions_t>?, attributes: UnsafePointer<posix_spawnattr_t>?) throws -> pid_t {
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        var pid: pid_t = 0
        let rc: Int32
        if let environment {
            let cEnv = environment.map { strdup($0) } + [nil]
            defer { for e in cEnv { free(e) } }
            rc = posix_spawn(&pid, path, actions, attributes, cArgs, cEnv)
        } else {
            rc = posix_spawn(&pid, path, actions, attributes, cArgs, environ)
        }
        guard rc == 0 else { throw CLIError.failure("cannot run \(path): \(String(cString: strerror(rc)))") }
        return pid
    }

    /// Waits for `pid`; the exit status, or 128 + the signal that killed it.
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return decode(status)
    }

    static func decode(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}

enum SSHPaths {
    /// `path` made absolute against the working directory.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (cwd == "/" ? "" : cwd) + "/" + path
    }

    /// This program's own absolute path (for KnownHostsCommand and SSH_ASKPASS).
    static func executable() throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { throw CLIError.failure("cannot find hostbook's own path: \(String(cString: strerror(errno)))") }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
