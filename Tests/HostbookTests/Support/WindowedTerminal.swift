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
                    removing: [String] = ["COLUMNS", "NO_COLOR"], timeout: TimeInterval = 120) throws -> Result {
        var master: Int32 = -1, slave: Int32 = -1
        var size = winsize(ws_row: 24, ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw XCTSkip("openpty is not available") }
        let p = Process()
        p.executableURL = HostbookProcess.binaryURL
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for k in removing { env.removeValue(forKey: k) }
        for (k, v) in environment { env[k] = v }
        p.environment = env
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
