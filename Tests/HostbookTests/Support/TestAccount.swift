// An ordinary account for end-to-end tests, so that hostbook runs as a user runs it: root
// sees what users cannot (the /proc files of a non-dumpable process, other users' files, the
// ~/.ssh of its own passwd entry), and a test that passes only as root proves nothing.
//
// When the tests run as root (as CI does), each HostbookFixture makes one: `useradd` with
// the fixture's folder `home` as its passwd home (ssh reads ~/.ssh from there, not from
// $HOME), a password (sshd refuses a locked account), `run` as its XDG_RUNTIME_DIR, and a
// D-Bus session of its own with an unlocked GNOME Keyring (or KeePassXC, inside
// scripts/with-keepassxc), started as the account by the project's own scripts. Programs run
// as the account through `setpriv`, with a clean environment. At the end every process of
// the account is stopped and the account removed.
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class TestAccount: @unchecked Sendable {
    let name: String
    let uid: uid_t
    let gid: gid_t
    /// The passwd home; also $HOME of every run.
    let home: String
    /// $XDG_RUNTIME_DIR of every run (0700, the account's).
    let runtime: String
    /// The account's login password (sshd checks /etc/shadow for password logins).
    let password: String
    /// The account's own folder: its home, its runtime folder, its session's runtime folder.
    private let own: TemporaryDirectory
    private var session: Process?
    private var sessionInput: Pipe?
    private(set) var busAddress: String?

    /// Makes the account, with its home and runtime folder in a temporary folder of its own.
    init() throws {
        own = try TemporaryDirectory()
        let home = own.file("home"), runtime = own.file("run")
        name = "hbu\(UInt32.random(in: 0..<100_000_000))"
        let made = try ToolProcess.run(URL(fileURLWithPath: "/usr/sbin/useradd"),
                                       ["--no-create-home", "--home-dir", home, "--shell", "/bin/sh", "--user-group", name])
        guard made.status == 0, let pw = getpwnam(name) else {
            throw TestAccountError("useradd \(name) failed: \(made.stderr)")
        }
        uid = pw.pointee.pw_uid
        gid = pw.pointee.pw_gid
        self.home = home
        self.runtime = runtime
        password = (0..<16).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.joined()
        let set = try ToolProcess.run(URL(fileURLWithPath: "/usr/sbin/chpasswd"), [], stdin: Data("\(name):\(password)\n".utf8))
        guard set.status == 0 else { throw TestAccountError("chpasswd failed: \(set.stderr)") }
        for folder in [home, runtime] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        handOver()
    }

    /// Closed when the test that made it ends: XCTest keeps a test case (and the fixtures in
    /// its properties) alive until its whole suite ends, too late for the account's daemons.
    static func closedAtTheEndOfTheTest(_ account: TestAccount) -> TestAccount {
        AccountsOfTheTest.observer.add(account)
        return account
    }

    deinit { close() }

    /// True when tests run as root, the only case in which an account is made (an ordinary
    /// user already runs everything as an ordinary user).
    static var needed: Bool { geteuid() == 0 }

    /// The account of the tests that run hostbook without a fixture (HostbookProcess.run,
    /// a ScriptedTerminal of their own): one for the whole test process, made at first use
    /// and removed when the process exits. nil when the tests do not run as root.
    static var shared: TestAccount? {
        guard needed else { return nil }
        return SharedAccount.holder.account
    }

    /// Where the account's D-Bus session keeps its runtime files (dbus-1/services), away
    /// from the XDG_RUNTIME_DIR the tests check for leftovers.
    private var sessionRuntime: String { own.file("session-run") }

    /// The environment of every run: the account's own, never root's.
    func environment(_ extra: [String: String] = [:], removing: [String] = []) -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment
        var env = ["HOME": home, "USER": name, "LOGNAME": name, "SHELL": "/bin/sh", "XDG_RUNTIME_DIR": runtime,
                   "PATH": inherited["PATH"] ?? "/usr/local/bin:/usr/bin:/bin", "LANG": inherited["LANG"] ?? "C.UTF-8"]
        for key in ["HOSTBOOK_TEST_RUN", "HOSTBOOK_TEST_BACKEND", "HOSTBOOK_KEEPASSXC_DISPLAY", "TERM"] {
            if let value = inherited[key] { env[key] = value }
        }
        if let busAddress { env["DBUS_SESSION_BUS_ADDRESS"] = busAddress }
        // As ToolProcess does: `removing` takes away what the run would inherit; what the
        // test gives in `extra` is set.
        for key in removing { env.removeValue(forKey: key) }
        return env.merging(extra) { $1 }
    }

    /// `argv` as the account: setpriv's prefix.
    func command(_ argv: [String]) -> [String] {
        ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--init-groups"] + argv
    }

    /// Sets up `process` to run `argv`: as `account` with its environment plus `environment`
    /// when there is one, else as this process with its environment plus `environment`.
    /// `terminal`, a pseudo-terminal the program will use, is given to the account.
    static func prepare(_ process: Process, _ argv: [String], environment: [String: String], removing: [String],
                        account: TestAccount?, terminal: Int32?) throws {
        var argv = argv
        if let account {
            try account.startSession()
            account.handOver()
            if let terminal { fchown(terminal, account.uid, account.gid) }
            argv = account.command(argv)
            process.environment = account.environment(environment, removing: removing)
            process.currentDirectoryURL = URL(fileURLWithPath: account.home)
        } else {
            var env = ProcessInfo.processInfo.environment
            for k in removing { env.removeValue(forKey: k) }
            for (k, v) in environment { env[k] = v }
            process.environment = env
        }
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
    }

    /// Runs a program as the account to its end.
    func run(_ executable: String, _ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:],
             removing: [String] = [], timeout: TimeInterval = 120) throws -> HostbookResult {
        try startSession()
        handOver()
        let argv = command([executable] + arguments)
        return try ToolProcess.run(URL(fileURLWithPath: argv[0]), Array(argv.dropFirst()), stdin: stdin,
                                   environment: environment(extra, removing: removing), inheriting: false,
                                   directory: home, timeout: timeout)
    }

    /// Gives the account every file in the test's temporary folders: what the test wrote
    /// there as root (keys, configurations, fixtures) is then the user's, as if the user had
    /// written it.
    func handOver() {
        for folder in TemporaryDirectory.live.paths {
            lchown(folder, uid, gid)
            guard let walker = FileManager.default.enumerator(atPath: folder) else { continue }
            for case let relative as String in walker {
                lchown(folder + "/" + relative, uid, gid)
            }
        }
    }

    /// The account's D-Bus session with its Secret Service, started once.
    func startSession() throws {
        guard session == nil else { return }
        let backend = ProcessInfo.processInfo.environment["HOSTBOOK_TEST_BACKEND"] == "keepassxc" ? "with-keepassxc" : "with-keyring"
        let script = TestTools.folder + "/" + backend
        let p = Process()
        let argv = command([script, "/bin/sh", "-c", "printf '%s\\n' \"$DBUS_SESSION_BUS_ADDRESS\"; exec cat >/dev/null"])
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst())
        try FileManager.default.createDirectory(atPath: sessionRuntime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        handOver()
        p.environment = environment(["XDG_RUNTIME_DIR": sessionRuntime])
        p.currentDirectoryURL = URL(fileURLWithPath: home)
        let input = Pipe(), output = Pipe(), errors = Pipe()
        p.standardInput = input
        p.standardOutput = output
        p.standardError = errors
        try p.run()
        session = p
        sessionInput = input
        // The first line is the bus address, printed once the Secret Service is ready.
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        let address = String(decoding: line, as: UTF8.self)
        guard !address.isEmpty else {
            p.waitUntilExit()
            let why = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw TestAccountError("the account's Secret Service did not start: \(why)")
        }
        busAddress = address
    }

    private var closed = false

    /// Ends the session, every process of the account, and the account. Safe to call twice.
    func close() {
        guard !closed else { return }
        closed = true
        if let session {
            try? sessionInput?.fileHandleForWriting.close()
            let deadline = Date().addingTimeInterval(20)
            while session.isRunning && Date() < deadline { usleep(20_000) }
            if session.isRunning { session.terminate() }
            self.session = nil
        }
        // A zombie is left out: it runs nothing, only waits to be reaped, and an orphan's
        // parent is PID 1, which here may take a second or two to reap it (the session's
        // dbus-daemon, left by dbus-run-session, was waited for at every test's end). userdel
        // removes an account whose only processes are zombies.
        for _ in 0..<50 {
            let left = Self.processes(of: uid).filter(ProcFS.isAlive)
            if left.isEmpty { break }
            for pid in left { kill(pid, SIGKILL) }
            usleep(20_000)
        }
        _ = try? ToolProcess.run(URL(fileURLWithPath: "/usr/sbin/userdel"), [name])
    }

    /// The processes whose real uid is `uid`.
    static func processes(of uid: uid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry in
            guard let pid = pid_t(entry), let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") }) else { return nil }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            return fields.count > 1 && fields[1] == Substring(String(uid)) ? pid : nil
        }
    }
}

struct TestAccountError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The programs the account runs, where it can reach them: the checkout may sit in a folder
/// only root can enter (a clone under /root), so the hostbook binary and the keyring
/// scripts are copied once per test process into a folder everyone may read.
enum TestTools {
    static let folder: String = {
        let folder = "/tmp/hostbook-test-tools-\(getpid())"
        try? FileManager.default.removeItem(atPath: folder)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        chmod(folder, 0o755)
        let root = PackageRootPath.path
        for (source, name) in [(HostbookProcess.builtBinaryURL.path, "hostbook"),
                               (root + "/scripts/with-keyring", "with-keyring"), (root + "/scripts/with-keepassxc", "with-keepassxc")] {
            try? FileManager.default.copyItem(atPath: source, toPath: folder + "/" + name)
            chmod(folder + "/" + name, 0o755)
        }
        atexit { try? FileManager.default.removeItem(atPath: "/tmp/hostbook-test-tools-\(getpid())") }
        return folder
    }()
}

/// The process-wide account behind `TestAccount.shared`.
private final class SharedAccount: @unchecked Sendable {
    static let holder = SharedAccount()
    private let lock = NSLock()
    private var made: TestAccount?

    var account: TestAccount? {
        lock.lock()
        defer { lock.unlock() }
        if made == nil {
            made = try? TestAccount()
            atexit { SharedAccount.holder.close() }
        }
        return made
    }

    func close() {
        lock.lock()
        let account = made
        made = nil
        lock.unlock()
        account?.close()
    }
}

/// Closes the accounts a test made when that test finishes.
private final class AccountsOfTheTest: NSObject, XCTestObservation, @unchecked Sendable {
    static let observer: AccountsOfTheTest = {
        let observer = AccountsOfTheTest()
        XCTestObservationCenter.shared.addTestObserver(observer)
        return observer
    }()
    private let lock = NSLock()
    private var accounts: [TestAccount] = []

    func add(_ account: TestAccount) {
        lock.lock()
        accounts.append(account)
        lock.unlock()
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        lock.lock()
        let finished = accounts
        accounts.removeAll()
        lock.unlock()
        for account in finished { account.close() }
    }
}
