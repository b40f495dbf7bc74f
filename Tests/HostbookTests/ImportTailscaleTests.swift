// End-to-end tests of `hostbook import-tailscale` with the real binary: its report and JSON
// on a sample, a terminal's interactive choice, standard input and the tailscale command.
// Every other fixture of testdata/tailscale, re-import, rotation, refusals that change
// nothing and selection run in-process: HostbookLogicTests/ImportTailscaleLogicTests.
import Foundation
import XCTest

final class ImportTailscaleTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func own(_ name: String) -> String { Self.packageRoot.appendingPathComponent("testdata/tailscale/\(name)").path }

    var tmp: TemporaryDirectory!
    var db: String { tmp.file("hostbook.db") }

    override func setUpWithError() throws { tmp = try TemporaryDirectory() }
    override func tearDown() { tmp = nil }

    func hostbook(_ args: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> HostbookResult {
        try HostbookProcess.run(["--db", db] + args, stdin: stdin, environment: environment)
    }

    func assertRun(_ args: [String], status: Int32, stdout: String, stderr: String = "",
                   file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try hostbook(args)
        XCTAssertEqual(r.stdout, stdout, "stdout of \(args)", file: file, line: line)
        XCTAssertEqual(r.stderr, stderr, "stderr of \(args)", file: file, line: line)
        XCTAssertEqual(r.status, status, "exit status of \(args)", file: file, line: line)
    }

    // MARK: The samples of each kind of input (testdata/tailscale)

    func testStatusSmall() throws {
        try assertRun(["import-tailscale", own("status-four-peers.json"), "--all"], status: 0, stdout: """
            ACTION   NAME                HOSTNAME                              DETAILS
            skipped  alice-workstation   alice-workstation.tail4f21c8.ts.net   this machine
            added    alices-macbook-air  alices-macbook-air.tail4f21c8.ts.net  macOS, offline
            added    db-prod-1           db-prod-1.tail4f21c8.ts.net           linux, online, tag:db tag:prod, 3 host keys
            added    web01               web01.tail4f21c8.ts.net               linux, online, 3 host keys
            skipped  carol-desktop       carol-desktop.tail9e7d21.ts.net       shared in (sharee node)
            3 added, 0 updated, 0 unchanged, 2 skipped; 18 host-key entries trusted.

            """)
        // Idempotent: the same input again changes nothing.
        try assertRun(["import-tailscale", own("status-four-peers.json"), "--all"], status: 0, stdout: """
            ACTION     NAME                HOSTNAME                              DETAILS
            skipped    alice-workstation   alice-workstation.tail4f21c8.ts.net   this machine
            unchanged  alices-macbook-air  alices-macbook-air.tail4f21c8.ts.net  macOS, offline
            unchanged  db-prod-1           db-prod-1.tail4f21c8.ts.net           linux, online, tag:db tag:prod, 3 host keys
            unchanged  web01               web01.tail4f21c8.ts.net               linux, online, 3 host keys
            skipped    carol-desktop       carol-desktop.tail9e7d21.ts.net       shared in (sharee node)
            0 added, 0 updated, 0 unchanged, 2 skipped; 0 host-key entries trusted.

            """.replacingOccurrences(of: "0 unchanged, 2", with: "3 unchanged, 2"))
    }

    /// The API list and the status describe the same nodes (same IDs): importing one after
    /// the other updates instead of duplicating.
    // MARK: Refusals change nothing

    // MARK: Re-import, rotation, user changes

    /// Changes made with `hostbook edit` survive a re-import; Tailscale's own fields follow it.
    func testJSONOutput() throws {
        let r = try hostbook(["import-tailscale", own("status-two-tailnets.json"), "--all", "--json"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.stdout, """
            {
              "dry_run": false,
              "format": "status",
              "added": 2,
              "updated": 0,
              "unchanged": 0,
              "skipped": 1,
              "host_keys_trusted": 0,
              "hosts": [
                {
                  "name": "laptop",
                  "hostname": "laptop.tail7c3e90.ts.net",
                  "action": "skipped",
                  "reason": "this machine",
                  "node_id": "nFixSelf01CNTRL",
                  "tags": [],
                  "os": "linux",
                  "online": true,
                  "last_seen": null,
                  "owner": "dana@example.org",
                  "host_keys": 0
                },
                {
                  "name": "nas.tail7c3e90.ts.net",
                  "hostname": "nas.tail7c3e90.ts.net",
                  "action": "added",
                  "reason": null,
                  "node_id": "nFixNasA01CNTRL",
                  "tags": [],
                  "os": "linux",
                  "online": true,
                  "last_seen": null,
                  "owner": "dana@example.org",
                  "host_keys": 0
                },
                {
                  "name": "nas.tailb51d04.ts.net",
                  "hostname": "nas.tailb51d04.ts.net",
                  "action": "added",
                  "reason": null,
                  "node_id": "nFixNasB01CNTRL",
                  "tags": [],
                  "os": "linux",
                  "online": true,
                  "last_seen": null,
                  "owner": "dana@example.org",
                  "host_keys": 0
                }
              ],
              "rotations": [],
              "key_problems": [],
              "notes": []
            }

            """)
    }

    // MARK: Selection

    /// Tailscale's tags are stored as Tailscale spells them (`tag:prod`), and `list --tag`
    /// finds them with or without the `tag:` prefix, as `import-tailscale --tag` does; a
    /// device owned by the `tagged-devices` pseudo-user has no owner (`-`, JSON null).
    /// Other hosts' tags match the same way (issue 23).
    /// On a terminal (a pseudo-terminal from script(1)), a numbered list and a question.
    func testInteractiveChoiceOnATerminal() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("script(1) is not installed") }
        let command = "'\(HostbookProcess.binaryURL.path)' --db '\(db)' import-tailscale '\(own("status-four-peers.json"))'"
        let p = Process()
        try TestAccount.prepare(p, ["/usr/bin/script", "-qec", command, "/dev/null"], environment: [:], removing: [],
                                account: TestAccount.shared, terminal: nil)
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        input.fileHandleForWriting.write(Data("1,3\n".utf8))
        let data = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        XCTAssertEqual(p.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("""
            Tailscale devices:
              1) alices-macbook-air  (alices-macbook-air.tail4f21c8.ts.net, macOS, offline)
              2) db-prod-1  (db-prod-1.tail4f21c8.ts.net, linux, online)
              3) web01  (web01.tail4f21c8.ts.net, linux, online)
            Import which? Numbers such as 1,3-5, or 'all' (empty for none): 
            """), text)
        XCTAssertTrue(text.contains("2 added, 0 updated, 0 unchanged, 0 skipped; 9 host-key entries trusted."), text)
        XCTAssertEqual(try sqlite("SELECT name FROM hosts ORDER BY name"), "alices-macbook-air\nweb01\n")
    }

    // MARK: Standard input and the tailscale command

    func testStandardInput() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: own("status-rotation-before.json")))
        let r = try hostbook(["import-tailscale", "-", "--all"], stdin: bytes)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasSuffix("2 added, 0 updated, 0 unchanged, 1 skipped; 8 host-key entries trusted.\n"), r.stdout)
    }

    /// A stand-in `tailscale` on PATH: prints a file, or fails like a stopped tailscaled.
    func fakeTailscale(_ script: String) throws -> [String: String] {
        let bin = tmp.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let path = bin + "/tailscale"
        try ("#!/bin/sh\n" + script + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return ["PATH": bin + ":/usr/bin:/bin"]
    }

    func testRunsTailscaleStatusWithoutAFile() throws {
        let env = try fakeTailscale("[ \"$1 $2\" = \"status --json\" ] || exit 9\nexec cat '\(own("status-rotation-before.json"))'")
        let r = try hostbook(["import-tailscale", "--all"], environment: env)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.hasSuffix("2 added, 0 updated, 0 unchanged, 1 skipped; 8 host-key entries trusted.\n"), r.stdout)
    }

    /// Output that is not JSON is refused at its first byte, even from a command that would
    /// go on writing for ever.
    func testEndlessGarbageFromTailscaleIsRefusedPromptly() throws {
        let env = try fakeTailscale("exec yes garbage")
        let r = try hostbook(["import-tailscale", "--all"], environment: env)
        XCTAssertEqual(r.stderr, """
            hostbook: the output of 'tailscale status --json' cannot be used: the input is not valid JSON: unexpected 'g' at line 1, column 1
            Pass a file instead: run 'tailscale status --json > status.json' where Tailscale runs, then 'hostbook import-tailscale status.json'.

            """)
        XCTAssertEqual(r.status, 1)
    }

    func testTailscaleNotRunningOrMissing() throws {
        let env = try fakeTailscale("echo 'failed to connect to local tailscaled; it doesn'\\''t appear to be running' >&2\nexit 1")
        let r = try hostbook(["import-tailscale", "--all"], environment: env)
        XCTAssertEqual(r.stderr, """
            hostbook: 'tailscale status --json' failed: failed to connect to local tailscaled; it doesn't appear to be running
            Is Tailscale running ('tailscale up')? Or pass a file: hostbook import-tailscale FILE

            """)
        XCTAssertEqual(r.status, 1)
        let missing = try hostbook(["import-tailscale", "--all"], environment: ["PATH": tmp.file("nowhere")])
        XCTAssertEqual(missing.stderr, """
            hostbook: the 'tailscale' command was not found, so the device list cannot be read from it
            Pass a file instead: run 'tailscale status --json > status.json' where Tailscale runs, then 'hostbook import-tailscale status.json'.

            """)
        XCTAssertEqual(missing.status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))
    }

    // MARK: Helpers

    /// Reads the database with the sqlite3 tool (skips when it is not installed).
    func sqlite(_ sql: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { throw XCTSkip("sqlite3 is not installed") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [db, sql]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
