// Runs the real hostbook with chosen streams on a pseudo-terminal of a given width (openpty,
// then TIOCSWINSZ) and the others on pipes, for tests of what hostbook draws only on a
// terminal: tables that fit the width, colour, progress lines. stdin is the terminal too.
import Foundation
import Glibc
import XCTest

enum WindowedTerminal {
    enum Stream { case stdout, stderr }

    struct Result {
        let status: Int32
        /// Everything written to the terminal, exactly (CR, escapes and all).
        let screen: String
        let stdout: String
        let stderr: String
    }

    static func run(_ arguments: [String], columns: Int, onTerminal: Set<Stream>, environment: [String: String],
                    removing: [String] = ["COLUMNS", "NO_COLOR"], account: TestAccount? = nil, timeout: TimeInterval = 120) throws -> Result {
        var master: Int32 = -1, slave: Int32 = -1
        var size = winsize(ws_row: 24, ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw XCTSkip("openpty is not available") }
        let p = Process()
        try TestAccount.prepare(p, [HostbookProcess.binaryURL.path] + arguments, environment: environment, removing: removing,
                                account: account, terminal: slave)
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        let outPipe = Pipe(), errPipe = Pipe()
        p.standardInput = terminal
        p.standardOutput = onTerminal.contains(.stdout) ? terminal : outPipe
        p.standardError = onTerminal.contains(.stderr) ? terminal : errPipe
        try p.run()
        close(slave)
        try? outPipe.fileHandleForWriting.close()
        try? errPipe.fileHandleForWriting.close()
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async { outData = outPipe.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { errData = errPipe.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        var screen: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let n = read(master, &buffer, buffer.count)
            if n > 0 { screen += buffer[0..<n]; continue }
            if n < 0 && errno == EINTR { continue }
            break   // EIO: every holder of the terminal has closed it
        }
        close(master)
        if p.isRunning { p.terminate() }
        p.waitUntilExit()
        _ = group.wait(timeout: .now() + 10)
        return Result(status: p.terminationStatus, screen: String(decoding: screen, as: UTF8.self),
                      stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }
}

extension WindowedTerminal {
    /// hostbook running interactively on a pseudo-terminal of a given size that is its
    /// controlling terminal (setsid --ctty), for full-screen prompts (the host picker): the
    /// test types bytes, waits for what is drawn, reads the terminal's termios settings,
    /// resizes the window and sends signals. The test keeps the terminal open, so its
    /// settings can be read after hostbook has exited.
    final class Session {
        let master: Int32
        let slave: Int32
        private let process = Process()
        private(set) var screen: [UInt8] = []
        private var consumed = 0
        private var hungUp = false
        /// The terminal's settings before hostbook started (cooked: echo, canonical input).
        private(set) var initialSettings = termios()

        init(_ arguments: [String], columns: Int = 80, rows: Int = 24, environment: [String: String],
             removing: [String] = ["COLUMNS", "NO_COLOR"], account: TestAccount? = nil) throws {
            var m: Int32 = -1, s: Int32 = -1
            var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
            guard openpty(&m, &s, nil, nil, &size) == 0 else { throw XCTSkip("openpty is not available") }
            master = m
            slave = s
            _ = tcgetattr(slave, &initialSettings)
            var environment = environment
            environment["TERM"] = environment["TERM"] ?? ProcessInfo.processInfo.environment["TERM"] ?? "xterm"
            try TestAccount.prepare(process, ["/usr/bin/setsid", "--ctty", "--wait", HostbookProcess.binaryURL.path] + arguments,
                                    environment: environment, removing: removing, account: account, terminal: slave)
            let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
            process.standardInput = terminal
            process.standardOutput = terminal
            process.standardError = terminal
            try process.run()
        }

        deinit {
            if process.isRunning { kill(pid, SIGKILL); process.terminate(); process.waitUntilExit() }
            if !hungUp { close(master) }
            close(slave)
        }

        /// The PID of hostbook itself: setsid's own when it could exec hostbook directly,
        /// else its only child (setsid forks when it leads a process group, as Process
        /// makes it).
        var pid: pid_t {
            let p = process.processIdentifier
            if (try? String(contentsOfFile: "/proc/\(p)/comm", encoding: .utf8)) == "hostbook\n" { return p }
            let children = (try? String(contentsOfFile: "/proc/\(p)/task/\(p)/children", encoding: .utf8)) ?? ""
            return children.split(separator: " ").first.flatMap { pid_t($0) } ?? p
        }

        var isRunning: Bool { process.isRunning }

        /// Everything drawn so far, as text.
        var transcript: String { String(decoding: screen, as: UTF8.self) }

        /// Waits until `text` is drawn after what earlier calls matched; false on timeout.
        @discardableResult
        func expect(_ text: String, timeout: TimeInterval = 15, file: StaticString = #filePath, line: UInt = #line) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                let unread = String(decoding: screen[consumed...], as: UTF8.self)
                if let r = unread.range(of: text) {
                    consumed += unread[..<r.upperBound].utf8.count
                    return true
                }
                if Date() > deadline { break }
                pump(milliseconds: 100)
            }
            XCTFail("timed out waiting for '\(text)'; the terminal showed: \(transcript)", file: file, line: line)
            return false
        }

        /// Types bytes on the keyboard.
        func type(_ text: String) {
            var bytes = Array(text.utf8)
            _ = write(master, &bytes, bytes.count)
        }

        /// The terminal's current settings (the same whoever reads them).
        var settings: termios {
            var t = termios()
            _ = tcgetattr(slave, &t)
            return t
        }

        /// Closes the terminal's master side, as when a terminal window is closed: hostbook's
        /// reads end and its session gets SIGHUP.
        func hangUp() {
            close(master)
            hungUp = true
        }

        func resize(columns: Int, rows: Int) {
            var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
            _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        }

        /// Waits for hostbook to end, reading what it draws meanwhile; returns its status.
        func finish(timeout: TimeInterval = 60) -> Int32 {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { pump(milliseconds: 50) }
            if process.isRunning { kill(pid, SIGKILL); process.terminate() }
            process.waitUntilExit()
            pump(milliseconds: 50)
            return process.terminationStatus
        }

        private func pump(milliseconds: Int32) {
            if hungUp { usleep(UInt32(milliseconds) * 1000); return }
            var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, milliseconds) > 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = read(master, &buffer, buffer.count)
            if n > 0 { screen += buffer[0..<n] }
        }
    }
}
