// Where `import-tailscale` reads from: a file, `-` for stdin, or with no argument the output
// of `tailscale status --json`, streamed from the child's pipe as it is parsed.
#if canImport(Glibc)
import Glibc
#endif
import HostStore

enum TailscaleInput {
    /// Reads and parses the document named by `argument` (nil: run tailscale).
    static func read(_ argument: String?, environment: [String: String]) throws -> TailscaleDocument {
        switch argument {
        case "-":
            return try parse(FileDescriptorSource(fd: STDIN_FILENO, name: "standard input"))
        case let path?:
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw CLIError.failure("cannot open '\(path)': \(String(cString: strerror(errno)))")
            }
            defer { close(fd) }
            return try parse(FileDescriptorSource(fd: fd, name: "'\(path)'"))
        case nil:
            return try runTailscale(environment: environment)
        }
    }

    /// An input that cannot be used is a `HostStoreError` (`.unusableInput`, exit 1), with
    /// its hint: presented like every other HostStore error.
    static func parse(_ source: FileDescriptorSource) throws -> TailscaleDocument {
        try TailscaleDocumentReader.read(source)
    }

    static let passFileHint = "Pass a file instead: run 'tailscale status --json > status.json' where Tailscale runs, then 'hostbook import-tailscale status.json'."

    /// Runs `tailscale status --json` and parses its standard output as it arrives.
    static func runTailscale(environment: [String: String]) throws -> TailscaleDocument {
        guard let executable = findInPath("tailscale", environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin") else {
            throw CLIError.failure("the 'tailscale' command was not found, so the device list cannot be read from it", hint: passFileHint)
        }
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard makePipe(&outPipe) else { throw CLIError.failure("cannot run tailscale: \(String(cString: strerror(errno)))") }
        guard makePipe(&errPipe) else {
            close(outPipe[0]); close(outPipe[1])
            throw CLIError.failure("cannot run tailscale: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], STDERR_FILENO)
        let argv: [UnsafeMutablePointer<CChar>?] = [executable, "status", "--json"].map { (s: String) in strdup(s) }
        defer { argv.forEach { free($0) } }
        // hostbook ignores SIGPIPE; the child gets the default back, so closing the pipe on
        // it ends it rather than making it fail with "Broken pipe".
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv + [nil], environ)
        close(outPipe[1]); close(errPipe[1])
        guard rc == 0 else {
            close(outPipe[0]); close(errPipe[0])
            throw CLIError.failure("cannot run '\(executable)': \(String(cString: strerror(rc)))", hint: passFileHint)
        }
        var parsed: Result<TailscaleDocument, any Error>
        do {
            parsed = .success(try TailscaleDocumentReader.read(FileDescriptorSource(fd: outPipe[0], name: "the output of tailscale")))
        } catch {
            parsed = .failure(error)
        }
        // After a good parse the reader has already read to the end. After a bad one the rest
        // is of no use: closing the pipe ends a child that keeps writing (SIGPIPE) instead of
        // reading whatever it might still send.
        var scratch = [UInt8](repeating: 0, count: 65536)
        close(outPipe[0])
        var errBytes: [UInt8] = []
        while true {
            let n = scratch.withUnsafeMutableBytes { Glibc.read(errPipe[0], $0.baseAddress, $0.count) }
            if n <= 0 { break }
            if errBytes.count < 4096 { errBytes += scratch[0..<n] }
        }
        close(errPipe[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        let endedByUs = !exited && status & 0x7f == SIGPIPE
        if (!exited && !endedByUs) || (exited && code != 0) {
            let firstLine = String(decoding: errBytes, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init)
            let why = firstLine.map { $0.count > 200 ? String($0.prefix(200)) + "..." : $0 }
                ?? (exited ? "exit status \(code)" : "killed by signal \(status & 0x7f)")
            throw CLIError.failure("'tailscale status --json' failed: \(why)",
                                   hint: "Is Tailscale running ('tailscale up')? Or pass a file: hostbook import-tailscale FILE")
        }
        switch parsed {
        case .success(let doc): return doc
        case .failure(let e as HostStoreError) where e.kind == .unusableInput:
            throw CLIError.failure("the output of 'tailscale status --json' cannot be used: \(e.message)", hint: passFileHint)
        case .failure(let e): throw e
        }
    }

    /// A pipe whose ends are closed in the child (dup2 gives the child its own copies).
    private static func makePipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return true
    }

    static func findInPath(_ name: String, _ path: String) -> String? {
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = dir + "/" + name
            var st = stat()
            if stat(candidate, &st) == 0, st.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
