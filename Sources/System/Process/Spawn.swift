// Starting a child process with posix_spawn(3) (not Foundation's Process: a child such as
// ssh is long-lived, must get the terminal's signals and must inherit no descriptor but the
// ones named here), and what it is started with.
#if canImport(Glibc)
import Glibc
#endif

public enum Spawn {
    /// What the child gets besides its argv.
    public struct Options: Sendable {
        /// One step on the child's descriptors, in order, before it runs.
        public enum FileAction: Sendable, Equatable {
            /// open(path, flags) as descriptor `fd`.
            case open(Int32, path: String, flags: Int32)
            /// dup2(from, to): `to` is a copy of `from` that stays open across exec.
            case duplicate(Int32, to: Int32)
            case close(Int32)
        }

        public var fileActions: [FileAction] = []
        /// Signals set back to their default action (what this process ignores, e.g. SIGPIPE,
        /// the child must not).
        public var defaultSignals: [Int32] = []
        /// The child's signal mask; nil: this thread's.
        public var signalMask: [Int32]? = nil
        /// A session of its own (setsid): a terminal's hangup does not reach it.
        public var newSession = false
        /// `NAME=value` strings; nil: this process's environment.
        public var environment: [String]? = nil
        /// The child gets no descriptor of this process but 0, 1, 2 and what `fileActions`
        /// put there: every other one is marked close-on-exec here first (glibc's closefrom
        /// file action is not exported to Swift). For daemons that outlive this process.
        public var inheritNothing = false

        public init(fileActions: [FileAction] = [], defaultSignals: [Int32] = [], signalMask: [Int32]? = nil,
                    newSession: Bool = false, environment: [String]? = nil) {
            self.fileActions = fileActions
            self.defaultSignals = defaultSignals
            self.signalMask = signalMask
            self.newSession = newSession
            self.environment = environment
        }

        /// `variables` as `environment` holds them (`NAME=value`, sorted): what a child gets
        /// when it is to see a command's environment rather than this process's.
        public static func environment(_ variables: [String: String]) -> [String] {
            variables.map { "\($0.key)=\($0.value)" }.sorted()
        }

        /// stdin on /dev/null (and stdout too when `output`).
        public static func nullInput(output: Bool = false) -> [FileAction] {
            [.open(STDIN_FILENO, path: "/dev/null", flags: O_RDONLY)] + (output ? [.open(STDOUT_FILENO, path: "/dev/null", flags: O_WRONLY)] : [])
        }
    }

    /// Sets FD_CLOEXEC on every open descriptor from `first` up: descriptors this process
    /// keeps using stay open here, only an exec drops them. close_range(2) with
    /// CLOSE_RANGE_CLOEXEC (Linux 5.11, glibc 2.34) covers every descriptor; without it, a
    /// loop up to the soft limit (at most 65,536).
    static func markCloseOnExec(from first: Int32) {
        if let closeRange = closeRange, closeRange(UInt32(first), UInt32.max, closeRangeCloseOnExec) == 0 { return }
        var limit = rlimit()
        let top = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Int32(clamping: min(limit.rlim_cur, 65_536)) : 1024
        guard first < top else { return }
        for fd in first..<top {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    /// <linux/close_range.h>'s CLOSE_RANGE_CLOEXEC (not exported to Swift).
    static let closeRangeCloseOnExec: Int32 = 1 << 2

    /// glibc's close_range(3), when this glibc has it (not declared to Swift: looked up).
    /// It fails (ENOSYS, EINVAL) on a kernel before 5.11; then the loop does the work.
    static let closeRange: (@convention(c) (UInt32, UInt32, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "close_range") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UInt32, UInt32, Int32) -> Int32).self)
    }()

    /// glibc's POSIX_SPAWN_SETSID (not exported to Swift).
    static let setSessionFlag: Int32 = 0x80

    /// Starts `path` (no PATH search: see ExecutablePath) with `argv` (argv[0] included).
    public static func start(_ path: String, _ argv: [String], _ options: Options = Options()) throws(Errno) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for action in options.fileActions {
            switch action {
            case .open(let fd, let file, let flags): posix_spawn_file_actions_addopen(&actions, fd, file, flags, 0)
            case .duplicate(let from, let to): posix_spawn_file_actions_adddup2(&actions, from, to)
            case .close(let fd): posix_spawn_file_actions_addclose(&actions, fd)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags: Int32 = 0
        if !options.defaultSignals.isEmpty {
            var set = sigset_t()
            sigemptyset(&set)
            for s in options.defaultSignals { sigaddset(&set, s) }
            posix_spawnattr_setsigdefault(&attributes, &set)
            flags |= Int32(POSIX_SPAWN_SETSIGDEF)
        }
        if let mask = options.signalMask {
            var set = sigset_t()
            sigemptyset(&set)
            for s in mask { sigaddset(&set, s) }
            posix_spawnattr_setsigmask(&attributes, &set)
            flags |= Int32(POSIX_SPAWN_SETSIGMASK)
        }
        if options.newSession { flags |= setSessionFlag }
        if options.inheritNothing { markCloseOnExec(from: 3) }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let cArgs = argv.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        var pid: pid_t = 0
        let rc: Int32
        if let environment = options.environment {
            let cEnv = environment.map { strdup($0) } + [nil]
            defer { for e in cEnv { free(e) } }
            rc = posix_spawn(&pid, path, &actions, &attributes, cArgs, cEnv)
        } else {
            rc = posix_spawn(&pid, path, &actions, &attributes, cArgs, environ)
        }
        guard rc == 0 else { throw Errno(rc) }
        return pid
    }
}
