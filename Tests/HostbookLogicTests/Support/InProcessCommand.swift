// One hostbook command run in this process: `Hostbook.main` itself (the real ArgumentParser,
// command table, command body and error report) on a real SQLite file, with this process's
// stdin, stdout and stderr pointed at files for the call (stdin is never a terminal, so
// nothing prompts). The logic of a command is tested here without spawning the binary; the
// binary's own contract (a process's argv bytes, exit status, terminals) is HostbookTests'.
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import hostbook
import TestSupport
import XCTest

final class InProcessCommand: HostbookRunning {
    let folder: TempFolder
    /// The database file every command uses ($HOSTBOOK_DB), not created until a command writes.
    var databasePath: String { folder.file("data/hostbook.db") }
    var environment: [String: String]
    private var calls = 0
    /// HostbookFixture's names for the same, so a test reads alike on either side.
    var dir: TempFolder { folder }
    var db: String { databasePath }

    /// The database's folder (HostbookRunning: files()).
    var dataFolder: String { folder.file("data") }

    init() throws {
        folder = try TempFolder()
        environment = ["HOSTBOOK_DB": folder.file("data/hostbook.db"), "HOME": folder.file("home"),
                       "XDG_CONFIG_HOME": folder.file("home/.config"), "NO_COLOR": "1",
                       "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
    }

    /// What one call printed and returned.
    struct Outcome: Equatable, CustomStringConvertible, HostbookCall {
        let status: Int32
        let stdoutBytes: Data
        let stderr: String
        var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
        var description: String { "exit \(status), stdout \(stdout.debugDescription), stderr \(stderr.debugDescription)" }
    }

    /// What a refused command prints on stderr and exits with.
    struct Refusal: Equatable, CustomStringConvertible {
        let status: Int32
        let stderr: String
        var description: String { "exit \(status): \(stderr.debugDescription)" }
    }

    /// Runs `hostbook ARGV` with `stdin` (or `bytes`) as its standard input and `extra` over
    /// the environment.
    func call(_ argv: [String], stdin: String = "", bytes: Data? = nil, environment extra: [String: String] = [:]) throws -> Outcome {
        calls += 1
        let base = folder.file("call-\(calls)")
        XCTAssertTrue(FileManager.default.createFile(atPath: base + ".in", contents: bytes ?? Data(stdin.utf8)))
        let env = environment.merging(extra) { $1 }
        let files = [(0, base + ".in", O_RDONLY), (1, base + ".out", O_WRONLY | O_CREAT | O_TRUNC), (2, base + ".err", O_WRONLY | O_CREAT | O_TRUNC)]
        fflush(nil)  // every C stream, before and after the descriptors change
        var saved: [Int32] = []
        for (fd, path, flags) in files {
            let opened = open(path, flags, 0o600)
            guard opened >= 0 else { throw POSIXError(.EIO) }
            saved.append(dup(Int32(fd)))
            dup2(opened, Int32(fd))
            close(opened)
        }
        let status = Hostbook.main(argv, environment: env)
        fflush(nil)  // every C stream, before and after the descriptors change
        for (i, (fd, _, _)) in files.enumerated() {
            dup2(saved[i], Int32(fd))
            close(saved[i])
        }
        func read(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
        return Outcome(status: status, stdoutBytes: try read(base + ".out"), stderr: String(decoding: try read(base + ".err"), as: UTF8.self))
    }

    /// Runs `argv`; nil when it exited 0, else its refusal.
    func refusal(_ argv: [String], stdin: String = "", environment extra: [String: String] = [:]) throws -> Refusal? {
        let o = try call(argv, stdin: stdin, environment: extra)
        return o.status == 0 ? nil : Refusal(status: o.status, stderr: o.stderr)
    }

    /// HostbookRunning's one call, under ok, fails and json.
    func hostbook(_ argv: [String], stdin: String?) throws -> Outcome { try call(argv, stdin: stdin ?? "") }

    /// Runs `hostbook ARGS`.
    @discardableResult
    func run(_ argv: String..., stdin: String = "") throws -> Outcome { try call(argv, stdin: stdin) }

    @discardableResult
    func run(_ argv: [String], stdin: String? = nil) throws -> Outcome { try call(argv, stdin: stdin ?? "") }

}
