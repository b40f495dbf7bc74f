// In-process (InProcessCommand runs Hostbook.main): reading commands create no database,
// check --json, the rotation switch per name and port. Moved from
// HostbookTests/KnownHostsCommandTests, which keeps the lifecycle, usage errors, the
// ssh-keygen round trip and scans of a private sshd on the binary.
// End-to-end tests of `hostbook known-hosts ...` with the real binary: exact output, error
// text and exit codes (docs/command-line.md, "Exit codes"), and files that ssh-keygen reads back.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class KnownHostsCommandLogicTests: XCTestCase, TestHostKeys {
    var cli: InProcessCommand!
    var tmp: TempFolder { cli.folder }
    var env: [String: String] = [:]


    override func setUpWithError() throws {
        cli = try InProcessCommand()
        env = ["HOSTBOOK_DB": tmp.file("hostbook.db"), "HOME": tmp.path]
    }

    @discardableResult
    func hb(_ args: [String], stdin: String = "") throws -> InProcessCommand.Outcome {
        try cli.call(args, stdin: stdin, environment: env)
    }

    func assertResult(_ r: InProcessCommand.Outcome, _ status: Int32, stdout: String? = nil, stderr: String? = nil,
                      file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, status, "stderr: \(r.stderr)", file: file, line: line)
        if let stdout { XCTAssertEqual(r.stdout, stdout, file: file, line: line) }
        if let stderr { XCTAssertEqual(r.stderr, stderr, file: file, line: line) }
    }

    func testReadingCommandsCreateNoDatabase() throws {
        assertResult(try hb(["known-hosts", "check", "h.test", "--key", keyA]), 10, stdout: "unknown: no key is known for 'h.test'\n", stderr: "")
        assertResult(try hb(["known-hosts", "list", "--json"]), 0, stdout: "[]\n", stderr: "")
        assertResult(try hb(["known-hosts", "export"]), 0, stdout: "", stderr: "")
        assertResult(try hb(["known-hosts", "list", "h.test"]), 4, stdout: "", stderr: "hostbook: no known-hosts entries for 'h.test'\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.file("hostbook.db")))
    }

    func testCheckJSON() throws {
        try hb(["known-hosts", "approve", "h.test", "--port", "2222", "--key", keyA, "--yes"])
        let r = try hb(["known-hosts", "check", "h.test", "--port", "2222", "--key", keyA, "--json"])
        assertResult(r, 0)
        let o = try XCTUnwrap(JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any])
        XCTAssertEqual(o["status"] as? String, "trusted")
        XCTAssertEqual(o["host"] as? String, "h.test")
        XCTAssertEqual(o["port"] as? Int, 2222)
        XCTAssertEqual(o["fingerprint"] as? String, fpA)
        let entries = try XCTUnwrap(o["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(entries[0]["port"] as? Int, 2222)
        XCTAssertEqual(entries[0]["source"] as? String, "manual")
        let unknown = try hb(["known-hosts", "check", "h.test", "--key", keyA, "--json"])
        assertResult(unknown, 10)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: unknown.stdoutBytes) as? [String: Any])?["status"] as? String, "unknown")
    }

    func testRotationSwitchIsPerNameAndPort() throws {
        assertResult(try hb(["known-hosts", "rotation", "h.test"]), 0, stdout: "Host-key rotation is on for 'h.test'.\n", stderr: "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.file("hostbook.db")), "asking creates nothing")
        assertResult(try hb(["known-hosts", "rotation", "h.test", "--on", "--off"]), 2, stdout: "",
                     stderr: "hostbook: --on and --off cannot be given together\n")
        assertResult(try hb(["known-hosts", "rotation", "*.test", "--off"]), 2, stdout: "")
        assertResult(try hb(["known-hosts", "rotation", "[h.test]:2222", "--off"]), 0,
                     stdout: "Host-key rotation is now off for 'h.test' (port 2222).\n")
        assertResult(try hb(["known-hosts", "rotation", "H.TEST", "--port", "2222", "--off"]), 0,
                     stdout: "Host-key rotation was already off for 'h.test' (port 2222).\n")
        assertResult(try hb(["known-hosts", "rotation", "h.test", "--port", "2222"]), 0, stdout: "Host-key rotation is off for 'h.test' (port 2222).\n")
        assertResult(try hb(["known-hosts", "rotation", "h.test"]), 0, stdout: "Host-key rotation is on for 'h.test'.\n")
        assertResult(try hb(["known-hosts", "rotation", "[h.test]:2222", "--on"]), 0,
                     stdout: "Host-key rotation is now on for 'h.test' (port 2222).\n")
    }
}
