// Runs the real hostbook with stdin, stdout and stderr on a pseudo-terminal (openpty), so
// its prompts behave as on a user's terminal. Answers are typed up front: the terminal
// buffers them and hostbook reads them one line per prompt.
import Foundation
import Glibc
import XCTest

enum KnownHostsPseudoTerminal {
    struct Result {
        let status: Int32
        /// Everything the terminal showed (prompts, echoed answers, output), CRs removed.
        let screen: String
    }

    static func run(_ arguments: [String], typing answers: [String], environment: [String: String]) throws -> Result {
        var master: Int32 = -1, slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw XCTSkip("openpty is not available") }
        let p = Process()
        try TestAccount.prepare(p, [HostbookProcess.binaryURL.path] + arguments, environment: environment, removing: [],
                                account: TestAccount.shared, terminal: slave)
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        p.standardInput = handle
        p.standardOutput = handle
        p.standardError = handle
        try p.run()
        close(slave)
        let input = answers.map { $0 + "\n" }.joined()
        _ = input.withCString { write(master, $0, strlen($0)) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let n = read(master, &buffer, buffer.count)
            if n > 0 { output += buffer[0..<n]; continue }
            if n < 0 && errno == EINTR { continue }
            break   // EIO: the child closed the terminal
        }
        close(master)
        p.waitUntilExit()
        let screen = String(decoding: output, as: UTF8.self).replacingOccurrences(of: "\r", with: "")
        return Result(status: p.terminationStatus, screen: screen)
    }
}
