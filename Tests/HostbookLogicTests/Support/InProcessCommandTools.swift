// The other programs an in-process test runs beside hostbook (ssh-keygen, sqlite3,
// secret-tool, git, a shell): with this process's environment plus the one InProcessCommand
// gives hostbook, so they see the same HOME, database and Secret Service.
import Foundation
import XCTest

extension InProcessCommand {
    /// What a program printed and returned.
    struct ToolOutcome {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `executable` with `args`, `stdin` and `extra` over the environment commands get.
    @discardableResult
    func tool(_ executable: String, _ args: [String], stdin: String? = nil, environment extra: [String: String] = [:]) throws -> ToolOutcome {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = args
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }.merging(extra) { $1 }
        let base = folder.file("tool-\(UUID().uuidString)")
        XCTAssertTrue(FileManager.default.createFile(atPath: base + ".in", contents: Data((stdin ?? "").utf8)))
        XCTAssertTrue(FileManager.default.createFile(atPath: base + ".out", contents: nil))
        XCTAssertTrue(FileManager.default.createFile(atPath: base + ".err", contents: nil))
        p.standardInput = FileHandle(forReadingAtPath: base + ".in")
        p.standardOutput = FileHandle(forWritingAtPath: base + ".out")
        p.standardError = FileHandle(forWritingAtPath: base + ".err")
        try p.run()
        p.waitUntilExit()
        func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return ToolOutcome(status: p.terminationStatus, stdout: read(base + ".out"), stderr: read(base + ".err"))
    }

    /// Runs `script` with /bin/sh, `extra` over the environment commands get; fails the test
    /// unless it exits 0.
    @discardableResult
    func shell(_ script: String, environment extra: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws -> ToolOutcome {
        let r = try tool("/bin/sh", ["-c", script], environment: extra)
        XCTAssertEqual(r.status, 0, "\(script): \(r.stderr)", file: file, line: line)
        return r
    }

    /// One value from `db` (the command's database unless given) with the sqlite3 tool, read-only.
    func sql(_ query: String, db: String? = nil) throws -> String {
        try tool("/usr/bin/sqlite3", ["-readonly", db ?? databasePath, query]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
