// Runs the vault-probe helper (Tests/VaultProbe) in a child process with a chosen environment,
// so one test can talk to a private D-Bus session without touching the test process's own.
import Foundation
import XCTest

struct ProbeResult {
    let status: Int32
    let stdout: String
    let stderr: String
    let seconds: Double
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
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let start = Date()
        try process.run()
        input.fileHandleForWriting.write(stdin)
        try input.fileHandleForWriting.close()
        // Small outputs: reading one pipe after the other cannot block the child.
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProbeResult(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                           stderr: String(decoding: err, as: UTF8.self), seconds: Date().timeIntervalSince(start))
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
        let command = ([binaryURL.path, database, "-"] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try run([], database: database, environment: environment, removing: removing,
                       launcher: ["/usr/bin/script", "-qec", command, "/dev/null"], withoutProbe: true)
    }
}

private final class ProbeMarker {}
