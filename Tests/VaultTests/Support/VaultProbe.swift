// Runs the vault-probe helper (Tests/VaultProbe) in a child process with a chosen environment,
// so one test can talk to a private D-Bus session without touching the test process's own.
import Foundation
import XCTest

struct ProbeResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// A vault-probe run started in the background: what it prints is collected as it comes,
/// so a test can wait for a line (a readiness signal) and see which of several runs ended first.
final class RunningProbe: @unchecked Sendable {
    let process: Process
    private let lock = NSLock()
    private var out = Data(), err = Data()
    private let drained = DispatchGroup()

    fileprivate init(_ process: Process, stdin: Data) throws {
        self.process = process
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        for (pipe, isOut) in [(output, true), (errors, false)] {
            drained.enter()
            DispatchQueue.global().async { [self] in
                while true {
                    let chunk = pipe.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    lock.lock()
                    if isOut { out.append(chunk) } else { err.append(chunk) }
                    lock.unlock()
                }
                drained.leave()
            }
        }
        input.fileHandleForWriting.write(stdin)
        try input.fileHandleForWriting.close()
    }

    var isRunning: Bool { process.isRunning }

    /// What it printed on stdout so far.
    var stdoutSoFar: String {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: out, as: UTF8.self)
    }

    /// Waits until stdout holds `text`, checking every 20 ms at most `attempts` times.
    func waitForOutput(_ text: String, attempts: Int = 1500) -> Bool {
        for _ in 0..<attempts {
            if stdoutSoFar.contains(text) { return true }
            if !isRunning { break }
            usleep(20_000)
        }
        return stdoutSoFar.contains(text)
    }

    /// Waits for the run to end and for all it printed.
    func wait() -> ProbeResult {
        process.waitUntilExit()
        drained.wait()
        lock.lock(); defer { lock.unlock() }
        return ProbeResult(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                           stderr: String(decoding: err, as: UTF8.self))
    }
}

enum VaultProbe {
    static var binaryURL: URL {
        let bundle = Bundle(for: ProbeMarker.self).bundleURL
        var dir = bundle.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: dir.appendingPathComponent("vault-probe").path) {
            dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        }
        return dir.appendingPathComponent("vault-probe")
    }

    /// A script of the package (scripts/NAME), e.g. to run the probe inside scripts/with-keepassxc.
    static func script(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/\(name)").path
    }

    /// `vault-probe DB TIMEOUT args...` with `environment` set and `removing` unset; with a
    /// `launcher` (e.g. [script("with-keepassxc"), "--locked"]), run as its command.
    static func run(_ arguments: [String], database: String, timeoutMilliseconds: Int = 5000,
                    stdin: Data = Data(), environment: [String: String] = [:], removing: [String] = [],
                    launcher: [String] = [], withoutProbe: Bool = false) throws -> ProbeResult {
        try start(arguments, database: database, timeoutMilliseconds: timeoutMilliseconds, stdin: stdin,
                  environment: environment, removing: removing, launcher: launcher, withoutProbe: withoutProbe).wait()
    }

    /// `run`, started in the background.
    static func start(_ arguments: [String], database: String, timeoutMilliseconds: Int = 5000,
                      stdin: Data = Data(), environment: [String: String] = [:], removing: [String] = [],
                      launcher: [String] = [], withoutProbe: Bool = false) throws -> RunningProbe {
        let process = Process()
        let probe = [database, timeoutMilliseconds < 0 ? "-" : String(timeoutMilliseconds)] + arguments
        if let first = launcher.first {
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = Array(launcher.dropFirst()) + (withoutProbe ? [] : [binaryURL.path] + probe)
        } else {
            process.executableURL = binaryURL
            process.arguments = probe
        }
        var env = ProcessInfo.processInfo.environment
        for name in removing { env.removeValue(forKey: name) }
        for (name, value) in environment { env[name] = value }
        process.environment = env
        return try RunningProbe(process, stdin: stdin)
    }

    /// The order in which `probes` end, as their indexes: whichever exits first comes first.
    static func endingOrder(_ probes: [RunningProbe]) -> [Int] {
        let lock = NSLock()
        nonisolated(unsafe) var order: [Int] = []
        let group = DispatchGroup()
        for (i, probe) in probes.enumerated() {
            group.enter()
            DispatchQueue.global().async {
                probe.process.waitUntilExit()
                lock.lock(); order.append(i); lock.unlock()
                group.leave()
            }
        }
        group.wait()
        return order
    }
}

extension VaultProbe {
    /// `vault-probe DB - args...`: the deadline the probe chooses (VaultTimeout), here
    /// without a terminal.
    static func runDefaultDeadline(_ arguments: [String], database: String, environment: [String: String] = [:],
                                   removing: [String] = []) throws -> ProbeResult {
        try run(arguments, database: database, timeoutMilliseconds: -1, environment: environment, removing: removing)
    }

    /// `vault-probe DB - args...` on a pseudo-terminal (script(1)): stdout and stderr both
    /// arrive in `stdout`, with CR LF line ends.
    static func onATerminal(_ arguments: [String], database: String, environment: [String: String] = [:],
                            removing: [String] = []) throws -> ProbeResult {
        try startOnATerminal(arguments, database: database, environment: environment, removing: removing).wait()
    }

    /// `onATerminal`, started in the background.
    static func startOnATerminal(_ arguments: [String], database: String, environment: [String: String] = [:],
                                 removing: [String] = []) throws -> RunningProbe {
        let command = ([binaryURL.path, database, "-"] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try start([], database: database, environment: environment, removing: removing,
                         launcher: ["/usr/bin/script", "-qec", command, "/dev/null"], withoutProbe: true)
    }
}

private final class ProbeMarker {}
