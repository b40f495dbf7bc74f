// What a test's `hostbook` runner shares, whether it spawns the binary (HostbookTests'
// HostbookFixture) or runs Hostbook.main in-process (HostbookLogicTests' InProcessCommand):
// one copy of the helpers built on a single call, so a test reads alike on either side.
import Foundation
import XCTest

/// One call's outcome: its exit status, standard output and standard error.
public protocol HostbookCall {
    var status: Int32 { get }
    var stdoutBytes: Data { get }
    var stderr: String { get }
}

public protocol HostbookRunning {
    associatedtype Call: HostbookCall
    /// The folder of the database every call uses ($HOSTBOOK_DB's folder).
    var dataFolder: String { get }
    /// Runs `hostbook ARGV` with `stdin` (nothing when nil) on its standard input.
    func hostbook(_ argv: [String], stdin: String?) throws -> Call
}

extension HostbookRunning {
    /// Every file in the database's folder, recursively, sorted.
    public func files() -> [String] {
        guard let e = FileManager.default.enumerator(atPath: dataFolder) else { return [] }
        return e.compactMap { $0 as? String }.sorted()
    }

    /// Runs `argv` and fails the test with its stderr unless it exited 0.
    @discardableResult
    public func ok(_ argv: String..., stdin: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> Call {
        let r = try hostbook(argv, stdin: stdin)
        XCTAssertEqual(r.status, 0, "hostbook \(argv.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return r
    }

    /// Runs `argv` and fails the test unless it exited `status` with exactly `stderr` and
    /// printed nothing on stdout.
    public func fails(_ argv: [String], stdin: String? = nil, status: Int32, stderr: String,
                      file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try hostbook(argv, stdin: stdin)
        XCTAssertEqual(r.status, status, "hostbook \(argv.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        XCTAssertEqual(r.stderr, stderr, "hostbook \(argv.joined(separator: " "))", file: file, line: line)
        XCTAssertEqual(r.stdoutBytes, Data(), String(decoding: r.stdoutBytes, as: UTF8.self), file: file, line: line)
    }

    /// The JSON document `hostbook ARGV --json` prints (the test fails unless it exited 0).
    public func json(_ argv: String...) throws -> Any {
        let r = try hostbook(argv + ["--json"], stdin: nil)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONSerialization.jsonObject(with: r.stdoutBytes, options: [.fragmentsAllowed])
    }
}

extension HostbookRunning {
    /// `__complete commands` read, checked to list the commands and the global options (a
    /// completion test's starting point).
    public func completionListing(file: StaticString = #filePath, line: UInt = #line) throws -> CompletionListing {
        let call = try hostbook(["__complete", "commands"], stdin: nil)
        XCTAssertEqual(call.status, 0, call.stderr, file: file, line: line)
        let listing = String(decoding: call.stdoutBytes, as: UTF8.self)
        let parsed = CompletionListing(listing)
        XCTAssertGreaterThan(parsed.commands.count, 25, listing, file: file, line: line)
        XCTAssertEqual(Set(parsed.globals), ["--db", "--json", "--no-input", "--help", "--version"], file: file, line: line)
        return parsed
    }
}
