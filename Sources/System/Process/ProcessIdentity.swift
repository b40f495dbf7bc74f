// Which program a socket's peer is, pinned when the connection is accepted, so that a
// process that exits (its pid then reused), execs another program or rewrites its
// command line after connecting is not taken for another program.
//
// At accept: a pidfd of the peer (SO_PEERPIDFD, the kernel's own reference to the process
// that connected, on Linux 6.5 and later; else pidfd_open(2) of SO_PEERCRED's pid), the
// process's start time (field 22 of /proc/PID/stat, in clock ticks since boot) and its
// executable (/proc/PID/exe, and nothing else: argv[0] is whatever the process says it
// is). `current()` reads both again later and answers only while the pidfd's process is
// still running with the same start time and executable; otherwise (exited, a pid reused,
// another program exec'd, /proc/PID/exe unreadable because the process is not dumpable)
// the program is unknown.
//
// A script's interpreter (python3, perl, sh ...) says nothing about which script runs, so
// for an executable on `interpreters` the program also names the script: the first word of
// the command line after the interpreter's options, resolved against the process's working
// folder (/proc/PID/cwd) and required to be an existing regular file. An interpreter with no
// such script (`python3 -c CODE`, `sh -c CMD`, a script that is gone) is an unknown program.
// The command line is the process's own memory and it can rewrite it: the script names
// what the process claims to run under a verified interpreter, no more.
#if canImport(Glibc)
import Glibc
#endif

public final class ProcessIdentity: @unchecked Sendable {
    /// A verified program: the executable, and for an interpreter the script it runs.
    public struct Program: Sendable, Equatable, Hashable {
        /// /proc/PID/exe.
        public let executable: String
        /// The script's resolved path, for an interpreter (nil for any other program).
        public let script: String?

        public init(executable: String, script: String?) {
            self.executable = executable
            self.script = script
        }
    }

    public let pid: Int32
    /// The process's start time when the connection was accepted (nil: not readable).
    public let startTime: UInt64?
    /// /proc/PID/exe when the connection was accepted (nil: not readable).
    public let executable: String?
    private let pidfd: Int32

    /// The basenames (a trailing version such as `3.11` or `5.36` ignored) of programs that
    /// run a script named on their command line.
    public static let interpreters: Set<String> = [
        "python", "pypy", "perl", "ruby", "node", "nodejs", "deno", "bun", "php", "lua", "luajit",
        "tclsh", "wish", "Rscript", "bash", "sh", "dash", "zsh", "ksh", "mksh", "fish", "busybox",
    ]

    /// The identity of the process on the other end of the connected Unix socket `fd`,
    /// whose SO_PEERCRED pid is `pid`.
    public convenience init(socket fd: Int32, pid: Int32) {
        switch Self.peerPidfd(fd) {
        case .success(let pidfd): self.init(pid: pid, pidfd: pidfd)
        // A kernel before 6.5: the pid, as close to the accept as can be.
        case .failure(let error) where error.code == ENOPROTOOPT: self.init(pid: pid, pidfd: Self.pidfdOpen(pid))
        // The peer is gone already (ESRCH): its pid may be another's; nobody.
        case .failure: self.init(pid: pid, pidfd: nil)
        }
    }

    /// The identity of process `pid` as it is now (a pidfd_open of it).
    public convenience init(pid: Int32) {
        self.init(pid: pid, pidfd: Self.pidfdOpen(pid))
    }

    private init(pid: Int32, pidfd: Int32?) {
        self.pid = pid
        self.pidfd = pidfd ?? -1
        let start = ProcessState.startTime(pid)
        let exe = Self.executable(of: pid)
        // Read through the pid: it is that of the pidfd's process only while it runs.
        if let pidfd, Self.running(pidfd) {
            self.startTime = start
            self.executable = exe
        } else {
            self.startTime = nil
            self.executable = nil
        }
    }

    deinit { if pidfd >= 0 { close(pidfd) } }

    /// Whether the process still runs with the start time and executable it had.
    public var isUnchanged: Bool {
        guard pidfd >= 0, let startTime, let executable else { return false }
        let start = ProcessState.startTime(pid)
        let exe = Self.executable(of: pid)
        return Self.running(pidfd) && start == startTime && exe == executable
    }

    /// The executable while the process is unchanged (nil otherwise): what the agent's log
    /// records, script or not.
    public var verifiedExecutable: String? { isUnchanged ? executable : nil }

    /// The program now: nil when it cannot be identified (see the file's comment).
    public func current() -> Program? {
        guard isUnchanged, let executable else { return nil }
        guard Self.isInterpreter(executable) else { return Program(executable: executable, script: nil) }
        let arguments = ProcessChain.commandLine(of: pid)
        guard let script = Self.scriptArgument(arguments), let resolved = Self.resolve(script, pid: pid),
              isUnchanged else { return nil }
        return Program(executable: executable, script: resolved)
    }

    /// Whether `executable`'s basename, less a trailing version, is on `interpreters`.
    public static func isInterpreter(_ executable: String) -> Bool {
        var name = Substring(executable.split(separator: "/").last ?? "")
        while let last = name.last, last.isNumber || last == "." { name = name.dropLast() }
        return interpreters.contains(String(name))
    }

    /// The script an interpreter's command line names: the first word after argv[0] that
    /// is not an option; nil when an option may take the program text (`-c`, `-e`, `-m` ...,
    /// whichever interpreter gives it that meaning) or ends the options without a script
    /// (`-`). An option with a value of its own (`-W ignore`) makes the value the "script",
    /// which then does not resolve: no program, no grant, never a wrong one.
    public static func scriptArgument(_ arguments: [String]) -> String? {
        let programOptions: Set<String> = ["-c", "-e", "-E", "-m", "-r", "-p", "--eval", "--print", "-", "--command"]
        for word in arguments.dropFirst() {
            if programOptions.contains(word) { return nil }
            if word == "--" { continue }
            if word.hasPrefix("-") { continue }
            return word
        }
        return nil
    }

    /// `path` resolved (against the process's working folder when relative, then realpath)
    /// when it is an existing regular file; nil otherwise.
    static func resolve(_ path: String, pid: Int32) -> String? {
        var full = path
        if !path.hasPrefix("/") {
            guard let cwd = readLink("/proc/\(pid)/cwd") else { return nil }
            full = cwd + "/" + path
        }
        guard let real = realpath(full, nil) else { return nil }
        defer { free(real) }
        let resolved = String(cString: real)
        var info = stat()
        guard stat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return resolved
    }


    /// /proc/PID/exe; nil when it cannot be read (gone, another user's, not dumpable).
    public static func executable(of pid: Int32) -> String? { readLink("/proc/\(pid)/exe") }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A pidfd is readable once its process has exited.
    private static func running(_ pidfd: Int32) -> Bool {
        (try? Poll.wait(pidfd, events: Int16(POLLIN), timeoutMilliseconds: 0)) == false
    }

    /// SO_PEERPIDFD (asm-generic/socket.h: 77; Linux 6.5): the connecting process's pidfd
    /// (ENOPROTOOPT before 6.5, ESRCH when that process is gone).
    private static func peerPidfd(_ socket: Int32) -> Result<Int32, Errno> {
        var fd: Int32 = -1
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socket, SOL_SOCKET, 77, &fd, &length) == 0 else { return .failure(Errno.current) }
        guard fd >= 0 else { return .failure(Errno(ESRCH)) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return .success(fd)
    }

    private typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32

    /// glibc's pidfd_open (2.36; the Glibc module does not declare it, and `syscall` is
    /// variadic, which Swift cannot call). A pidfd is close-on-exec.
    private static let pidfdOpenFunction: PidfdOpen? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else { return nil }
        return unsafeBitCast(symbol, to: PidfdOpen.self)
    }()

    private static func pidfdOpen(_ pid: Int32) -> Int32? {
        guard pid > 0, let open = pidfdOpenFunction else { return nil }
        let fd = open(pid, 0)
        return fd >= 0 ? fd : nil
    }
}
