// A private OpenSSH server for end-to-end tests: `sshd -D -e -f CONFIG` on 127.0.0.1 and an
// unprivileged port, with a temporary configuration and fresh host keys, started and stopped
// by this object by its PID. Real `ssh` against it is the oracle for host-key decisions and
// the target of connection tests. Nothing outside its temporary folder is touched except
// `/run/sshd`, which sshd's privilege separation requires.
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

public final class PrivateSSHD: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static let executable = "/usr/sbin/sshd"

    public let dir: TempFolder
    public let port: Int
    /// Host key files by type name as ssh-keygen takes it (`ed25519`, `ecdsa`, `rsa`).
    public let hostKeyFiles: [String: String]
    /// Where sshd reads the authorized keys of every user (`AuthorizedKeysFile`).
    public let authorizedKeysFile: String
    /// sshd's PID. sshd is spawned with posix_spawn, not Foundation's Process: sshd closes
    /// every inherited descriptor at start-up, which Foundation takes for the child's exit,
    /// and its blocking wait for sshd then stalls every other Process of the test.
    public private(set) var pid: pid_t
    private var running = true
    private let logFile: String
    /// What `restart` needs to start the same server again on the same port.
    private let extraConfig: [String]
    private let shadow: String?

    /// Starts sshd. `config` lines come first, so they win over the defaults below (in
    /// sshd_config the first value of a keyword wins). `authorizedKeys` are public key lines
    /// accepted for any user.
    /// `shadow`: a file this sshd sees as /etc/shadow, so that one user can have another
    /// password on this server than on others: in a mount namespace of its own, a copy of
    /// /etc holding that file is bind-mounted over /etc. Not the file alone over
    /// /etc/shadow: useradd, userdel and chpasswd replace /etc/shadow by rename(2), and since
    /// Linux 3.18 a rename over a mount point in another namespace detaches that mount, so
    /// another test's account made or removed meanwhile gave this sshd the real file back.
    /// `serving`: the host keys sshd loads (default: all of `hostKeyTypes`); `restart`
    /// can serve another subset of the same keys (a host-key rotation).
    public init(hostKeyTypes: [String] = ["ed25519"], serving: [String]? = nil, config: [String] = [], authorizedKeys: [String] = [], shadow: String? = nil,
         file: StaticString = #filePath, line: UInt = #line) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw Failure(description: "\(Self.executable) is missing: install openssh-server (scripts/setup does)")
        }
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        dir = try TempFolder()
        var keys: [String: String] = [:]
        for type in hostKeyTypes {
            let path = dir.file("ssh_host_\(type)_key")
            let r = try Tool.run("/usr/bin/ssh-keygen", ["-q", "-t", type, "-N", "", "-C", "test-host-\(type)", "-f", path])
            guard r.status == 0 else { throw Failure(description: "ssh-keygen -t \(type) failed: \(r.stderr)") }
            keys[type] = path
        }
        hostKeyFiles = keys
        authorizedKeysFile = dir.file("authorized_keys")
        let authorized = authorizedKeys.map { $0 + "\n" }.joined()
        try Data(authorized.utf8).write(to: URL(fileURLWithPath: authorizedKeysFile))
        // sshd reads a user's authorized keys with that user's rights (auth2-pubkey.c
        // user_key_allowed2 runs under temporarily_use_uid): the test account must reach the
        // file. The host keys stay root's, 0600.
        chmod(dir.path, 0o711)
        chmod(authorizedKeysFile, 0o644)
        logFile = dir.file("sshd.log")
        extraConfig = config
        self.shadow = shadow

        var started: (pid_t, Int)?
        var lastError = ""
        // A free port is found by binding port 0; another process may take it before sshd
        // does, so a failed start is retried on a new port.
        for _ in 0..<5 {
            let port = try Self.freePort()
            let child = try Self.start(port: port, serving: (serving ?? hostKeyTypes).compactMap { keys[$0] }, config: config,
                                       shadow: shadow, dir: dir, authorizedKeysFile: authorizedKeysFile, log: logFile)
            if Self.waitUntilListening(port: port, pid: child) {
                started = (child, port)
                break
            }
            lastError = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
            Self.terminate(child)
        }
        guard let (child, port) = started else { throw Failure(description: "sshd did not start: \(lastError)") }
        pid = child
        self.port = port
    }

    deinit { stop() }

    /// Writes the configuration and spawns sshd on `port` with the host key files `serving`.
    private static func start(port: Int, serving: [String], config: [String], shadow: String?, dir: TempFolder,
                              authorizedKeysFile: String, log: String) throws -> pid_t {
        let configFile = dir.file("sshd_config")
        var lines = config
        lines += ["Port \(port)", "ListenAddress 127.0.0.1", "AddressFamily inet"]
        lines += serving.map { "HostKey \($0)" }
        lines += [
            "PidFile none", "AuthorizedKeysFile \(authorizedKeysFile)", "StrictModes no", "UsePAM no",
            "PermitRootLogin yes", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
            "Subsystem sftp internal-sftp", "LogLevel VERBOSE", "MaxStartups 100:30:200",
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: configFile))
        var argv = [Self.executable, "-D", "-e", "-f", configFile]
        if let shadow {
            // unshare and sh both exec, so the PID is sshd's.
            argv = ["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
                    "etc=\"$1\"; shift; rm -rf \"$etc\" && cp -a /etc \"$etc\" && cp \"$0\" \"$etc/shadow\" "
                    + "&& mount --bind \"$etc\" /etc && exec \"$@\"", shadow, dir.file("etc")] + argv
        }
        return try spawn(argv, log: log)
    }

    /// Stops sshd and starts it again on the same port, loading only the host keys of
    /// `serving` (made at init): the server of a host-key rotation. With `hostKeyAgent` (an
    /// ssh-agent's socket), sshd loads the public halves only and signs through that agent
    /// (`HostKeyAgent`): a key the agent does not hold is announced but cannot be proven.
    public func restart(serving: [String], hostKeyAgent: String? = nil) throws {
        stop()
        let files = serving.compactMap { hostKeyFiles[$0] }.map { hostKeyAgent == nil ? $0 : $0 + ".pub" }
        let child = try Self.start(port: port, serving: files, config: (hostKeyAgent.map { ["HostKeyAgent \($0)"] } ?? []) + extraConfig,
                                   shadow: shadow, dir: dir, authorizedKeysFile: authorizedKeysFile, log: logFile)
        guard Self.waitUntilListening(port: port, pid: child) else {
            Self.terminate(child)
            throw Failure(description: "sshd did not start again: \(log)")
        }
        pid = child
        running = true
    }

    /// The public key line (`TYPE BASE64 COMMENT`) of the host key of `type`.
    public func publicKey(_ type: String = "ed25519") throws -> String {
        guard let path = hostKeyFiles[type] else { throw Failure(description: "no \(type) host key") }
        return try String(contentsOfFile: path + ".pub", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `TYPE BASE64` of the host key of `type`, as `known-hosts --key` takes it.
    public func publicKeyTypeAndBlob(_ type: String = "ed25519") throws -> String {
        try publicKey(type).split(separator: " ").prefix(2).joined(separator: " ")
    }

    /// What sshd logged so far (`-e`: its log goes to stderr, kept in a file).
    public var log: String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

    /// Waits until sshd has logged `text` `count` times (LogLevel VERBOSE: "Accepted publickey",
    /// "Starting session: shell", "Connection from" ...), checking every 20 ms, at most
    /// `attempts` times; true once it has.
    @discardableResult
    public func waitForLog(_ text: String, count: Int = 1, attempts: Int = 1500) -> Bool {
        for _ in 0..<attempts {
            if log.components(separatedBy: text).count - 1 >= count { return true }
            usleep(20_000)
        }
        return log.components(separatedBy: text).count - 1 >= count
    }

    /// Opens and closes one TCP connection and waits until sshd has logged it: every
    /// connection made before this one has been logged by then too (sshd logs them in the
    /// order it accepts them), so a count of "Connection from" taken afterwards is final.
    public func logMarkerConnection() -> Bool {
        let before = log.components(separatedBy: "Connection from").count - 1
        return Self.connects(port: port) && waitForLog("Connection from", count: before + 1)
    }

    /// Stops sshd by its PID and waits for it. Safe to call more than once.
    public func stop() {
        guard running else { return }
        running = false
        Self.terminate(pid)
    }

    /// Options for the real `ssh` that keep it away from the user's own files: no config file,
    /// no agent, batch mode, this server's port.
    public func sshOptions(knownHosts: String? = nil) -> [String] {
        var options = ["-F", "none", "-p", String(port), "-o", "BatchMode=yes", "-o", "IdentityAgent=none",
                       "-o", "ConnectTimeout=10", "-o", "GlobalKnownHostsFile=/dev/null"]
        if let knownHosts { options += ["-o", "UserKnownHostsFile=\(knownHosts)"] }
        return options
    }

    /// Starts `argv` with stdin from /dev/null and stdout and stderr appended to `log`.
    private static func spawn(_ argv: [String], log: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        var cEnv = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for e in cEnv { free(e) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, argv[0], &actions, nil, &cArgs, &cEnv)
        guard status == 0 else { throw Failure(description: "cannot start \(argv[0]): \(String(cString: strerror(status)))") }
        return child
    }

    /// SIGTERM, then SIGKILL after 5 s, and reaps the process.
    private static func terminate(_ pid: pid_t) {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
    }

    /// True while `pid` has not exited (it is reaped if it has).
    private static func isRunning(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw Failure(description: "bind() failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Opens and closes one TCP connection to 127.0.0.1:`port`; true when it was accepted.
    private static func connects(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// True once something accepts TCP connections on 127.0.0.1:`port` while `pid` runs.
    private static func waitUntilListening(port: Int, pid: pid_t) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            guard isRunning(pid) else { return false }
            if connects(port: port) { return true }
            usleep(20_000)
        }
        return false
    }
}
