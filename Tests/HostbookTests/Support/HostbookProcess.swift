// Runs the real `hostbook` binary for end-to-end tests and captures what it did.
import Foundation
import TestSupport
import XCTest

struct HostbookResult: HostbookCall {
    let status: Int32
    let stdout: String
    let stderr: String
    var stdoutBytes: Data
}

enum HostbookProcess {
    /// The `hostbook` the tests run: the built one, or, when the tests run as root and so
    /// run it as a test account, its copy where that account can reach it (TestTools).
    static var binaryURL: URL {
        TestAccount.needed ? URL(fileURLWithPath: TestTools.folder + "/hostbook") : builtBinaryURL
    }

    /// The built `hostbook` executable: it sits in the build products folder next to the test bundle.
    static var builtBinaryURL: URL {
        let bundle = Bundle(for: BundleMarker.self).bundleURL
        var dir = bundle.deletingLastPathComponent()
        // On Linux the .xctest is a file in the products folder.
        if !FileManager.default.fileExists(atPath: dir.appendingPathComponent("hostbook").path) {
            dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        }
        return dir.appendingPathComponent("hostbook")
    }

    /// Runs hostbook with `arguments`, optional stdin bytes and extra environment: as the
    /// shared test account when the tests run as root (TestAccount.shared, with its own
    /// D-Bus session), else as this process with its environment (which keeps the D-Bus
    /// session of scripts/with-keyring).
    @discardableResult
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
                    removing: [String] = [], timeout: TimeInterval = 120) throws -> HostbookResult {
        if let account = TestAccount.shared {
            return try account.run(binaryURL.path, arguments, stdin: stdin, environment: environment, removing: removing, timeout: timeout)
        }
        return try ToolProcess.run(binaryURL, arguments, stdin: stdin, environment: environment, removing: removing, timeout: timeout)
    }

    /// Runs hostbook as this process's own user (root in CI): only for tests whose subject
    /// is what root sees.
    @discardableResult
    static func runAsTestProcess(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
                                 removing: [String] = []) throws -> HostbookResult {
        try ToolProcess.run(binaryURL, arguments, stdin: stdin, environment: environment, removing: removing)
    }

    /// Convenience: stdin from a string.
    @discardableResult
    static func run(_ arguments: [String], input: String, environment: [String: String] = [:]) throws -> HostbookResult {
        try run(arguments, stdin: Data(input.utf8), environment: environment)
    }
}

private final class BundleMarker {}

/// Runs any program to the end with pipes for stdin, stdout and stderr.
enum ToolProcess {
    @discardableResult
    static func run(_ executable: URL, _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
                    removing: [String] = [], inheriting: Bool = true, directory: String? = nil,
                    timeout: TimeInterval = 120) throws -> HostbookResult {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        var env = inheriting ? ProcessInfo.processInfo.environment : [:]
        for k in removing { env.removeValue(forKey: k) }
        for (k, v) in environment { env[k] = v }
        p.environment = env
        if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let outPipe = Pipe(), errPipe = Pipe(), inPipe = Pipe()
        p.standardOutput = outPipe
        p.standardError = errPipe
        p.standardInput = inPipe
        try p.run()
        if let stdin { writeIgnoringBrokenPipe(inPipe.fileHandleForWriting, stdin) }
        try? inPipe.fileHandleForWriting.close()
        // Read both pipes concurrently so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async { outData = outPipe.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { errData = errPipe.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            p.terminate()
            throw NSError(domain: "ToolProcess", code: 1, userInfo: [
                NSLocalizedDescriptionKey: "\(executable.lastPathComponent) \(arguments) timed out"])
        }
        p.waitUntilExit()
        return HostbookResult(status: p.terminationStatus,
                              stdout: String(decoding: outData, as: UTF8.self),
                              stderr: String(decoding: errData, as: UTF8.self),
                              stdoutBytes: outData)
    }

    /// Runs a program as the user hostbook runs as in tests without a fixture: the shared
    /// test account when the tests run as root (an oracle such as `ssh -G` must read the
    /// files hostbook read, with the same rights), else as this process.
    @discardableResult
    static func runAsUser(_ executable: String, _ arguments: [String], stdin: Data? = nil,
                          environment: [String: String] = [:]) throws -> HostbookResult {
        if let account = TestAccount.shared {
            return try account.run(executable, arguments, stdin: stdin, environment: environment)
        }
        return try run(URL(fileURLWithPath: executable), arguments, stdin: stdin, environment: environment)
    }

    /// Writes `data` to a child's stdin; a child that exits before reading it must not end
    /// the test run with SIGPIPE. SIGPIPE is blocked in this thread only for the write and
    /// the pending one taken away (ignoring it process-wide would pass SIG_IGN on to every
    /// child, which changes how their own pipes fail).
    static func writeIgnoringBrokenPipe(_ handle: FileHandle, _ data: Data) {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        try? handle.write(contentsOf: data)
        var now = timespec(tv_sec: 0, tv_nsec: 0)
        while sigtimedwait(&pipeSignal, nil, &now) == SIGPIPE {}
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }

    /// ssh-keygen, the oracle for fingerprints and for what hostbook writes.
    @discardableResult
    static func sshKeygen(_ arguments: [String], stdin: Data? = nil) throws -> HostbookResult {
        try run(URL(fileURLWithPath: "/usr/bin/ssh-keygen"), arguments, stdin: stdin)
    }
}

/// A temporary folder removed at the end of a test. While a test account is alive, its
/// folders are the account's (TestAccount.handOver), as a user's own temporary folders are;
/// `rootOnly` keeps one root's (a private sshd's host keys).
final class TemporaryDirectory: @unchecked Sendable {
    let url: URL
    var path: String { url.path }
    let rootOnly: Bool

    init(rootOnly: Bool = false) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hostbook-test-\(UUID().uuidString)")
        self.rootOnly = rootOnly
        // 0700 whatever the umask: hostbook refuses a database in a folder others can write.
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        if !rootOnly { TemporaryDirectory.live.add(self) }
    }

    /// The folders not yet removed, for TestAccount.handOver.
    static let live = LiveFolders()

    final class LiveFolders: @unchecked Sendable {
        private let lock = NSLock()
        private var folders: [ObjectIdentifier: String] = [:]
        func add(_ dir: TemporaryDirectory) { lock.lock(); folders[ObjectIdentifier(dir)] = dir.path; lock.unlock() }
        func remove(_ dir: TemporaryDirectory) { lock.lock(); folders[ObjectIdentifier(dir)] = nil; lock.unlock() }
        var paths: [String] { lock.lock(); defer { lock.unlock() }; return Array(folders.values) }
    }

    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit {
        TemporaryDirectory.live.remove(self)
        try? FileManager.default.removeItem(at: url)
    }
}
