// The standing agent for in-process tests whose commands need one only to sign (bundle
// export): started from the built `hostbook` binary, as a user starts it, with the
// environment InProcessCommand gives its commands, so the in-process commands find it at the
// same socket ($XDG_RUNTIME_DIR/hostbook/agent.sock, or the --socket given). An in-process
// `agent start` cannot do it: it would start this test process's own executable.
import Foundation
import XCTest

extension InProcessCommand {
    /// The built `hostbook` executable: on Linux the test bundle is an executable in the
    /// build products folder, beside it.
    static var builtBinary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("hostbook").path
    }

    /// A private $XDG_RUNTIME_DIR for the call's environment (0700, this user's), so the
    /// default agent socket is this test's own.
    func privateRuntimeFolder() throws {
        let run = folder.file("run")
        try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        environment["XDG_RUNTIME_DIR"] = run
    }

    /// Runs the built binary with `args` and the environment commands get (plus `extra`).
    @discardableResult
    func binary(_ args: [String], environment extra: [String: String] = [:]) throws -> ToolOutcome {
        try tool(Self.builtBinary, args, environment: extra)
    }

    /// `hostbook agent start ARGS` on the built binary; fails the test unless it started.
    func startAgent(_ args: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try binary(["agent", "start"] + args)
        XCTAssertEqual(r.status, 0, "agent start: \(r.stderr)", file: file, line: line)
    }

    /// `hostbook agent stop ARGS` on the built binary (it stops the agent answering at the
    /// socket, by the pid the socket gives).
    func stopAgent(_ args: [String] = []) {
        _ = try? binary(["agent", "stop"] + args)
    }
}
