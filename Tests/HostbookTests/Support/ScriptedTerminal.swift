// Runs hostbook on a pseudo-terminal (util-linux `script`), waits for each prompt and
// answers it, for tests of the interactive paths (no-echo passphrase prompts, confirmations).
import Foundation
import XCTest

final class ScriptedTerminal: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let lock = NSLock()
    private var buffer = Data()
    private var consumed = 0
    /// Signalled once the output reaches its end (every holder of the terminal is gone).
    private let ended = DispatchSemaphore(value: 0)

    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/script") }

    /// Starts `hostbook ARGS` on a terminal; the inherited environment keeps the D-Bus session.
    /// With `fixture`, it runs as the fixture's account with the fixture's environment.
    convenience init(_ arguments: [String], fixture: HostbookFixture? = nil) throws {
        try self.init(running: [HostbookProcess.binaryURL.path] + arguments, fixture: fixture)
    }

    /// Starts any program (`argv`, its path first) on a terminal, as the fixture's account
    /// with the fixture's environment and `environment` over it.
    init(running argv: [String], fixture: HostbookFixture? = nil, environment: [String: String] = [:]) throws {
        let command = argv.map(Self.shellQuote).joined(separator: " ")
        if let fixture {
            try TestAccount.prepare(process, ["/usr/bin/script", "-qec", command, "/dev/null"],
                                    environment: fixture.environment.merging(environment) { $1 },
                                    removing: ["COLUMNS"], account: fixture.account, terminal: nil)
        } else if let account = TestAccount.shared {
            try TestAccount.prepare(process, ["/usr/bin/script", "-qec", command, "/dev/null"], environment: [:],
                                    removing: [], account: account, terminal: nil)
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qec", command, "/dev/null"]
        }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                self.ended.signal()
                return
            }
            self.lock.lock(); self.buffer.append(data); self.lock.unlock()
        }
        try process.run()
    }

    /// Waits until `text` appears in the output after what earlier calls already matched.
    func expect(_ text: String, timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            lock.lock()
            let unread = String(decoding: buffer[consumed...], as: UTF8.self)
            if let range = unread.range(of: text) {
                consumed += unread[..<range.upperBound].utf8.count
                lock.unlock()
                return
            }
            lock.unlock()
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTFail("timed out waiting for '\(text)'; output so far: \(transcript)", file: file, line: line)
    }

    /// Types a line, once `expect` has seen its prompt: hostbook turns echo off (flushing the
    /// terminal) before it prints a secret prompt, and flushes nothing after printing any
    /// prompt, so a line typed then is read, not thrown away.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits for the program to end; returns its exit status.
    func finish(timeout: TimeInterval = 60) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        // Everything it printed has been read once the output reaches its end.
        _ = ended.wait(timeout: .now() + 10)
        output.fileHandleForReading.readabilityHandler = nil
        try? input.fileHandleForWriting.close()
        return process.terminationStatus
    }

    /// Everything the terminal showed, with CR LF turned into LF.
    var transcript: String {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: buffer, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }

    private static func shellQuote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
