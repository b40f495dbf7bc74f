// `hostbook snippets add / show / list` in-process (InProcessCommand runs Hostbook.main):
// commands kept exactly as typed in show's text and JSON, the secret warning on stderr, an
// empty list without a database. Moved from HostbookTests/SnippetCommandTests, which keeps
// argv bytes, --command-stdin and the edit/list/remove exit codes and prompt on the binary.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class SnippetCommandLogicTests: XCTestCase {
    var hb: InProcessCommand!

    // XCTest keeps every test case object until the run ends: drop the fixture now so its
    // temporary folder is removed now.
    override func tearDown() { hb = nil }

    override func setUpWithError() throws { hb = try InProcessCommand() }

    func show(_ name: String) throws -> [String: Any] {
        try XCTUnwrap(try hb.json("snippets", "show", name) as? [String: Any])
    }

    func testCommandsAreKeptExactlyAsTyped() throws {
        let typed = "  df -h | sort -k5 -r   # ✓ naïve  "
        XCTAssertEqual(try hb.ok("snippets", "add", "disk", "--command", typed, "--description", "free space").stdout, "Added snippet 'disk'.\n")
        let o = try show("DISK")
        XCTAssertEqual(o["command"] as? String, typed)
        XCTAssertEqual(o["name"] as? String, "disk")
        XCTAssertEqual(o["description"] as? String, "free space")
        let r = try hb.ok("snippets", "show", "disk", "--json")
        XCTAssertTrue(r.stdout.hasPrefix("{\n  \"name\": \"disk\",\n  \"command\": \"  df -h | sort -k5 -r   # ✓ naïve  \",\n  \"description\": \"free space\",\n"), r.stdout)
        XCTAssertEqual(try hb.ok("snippets", "show", "disk").stdout, "name:        disk\ncommand:     \(typed)\ndescription: free space\n")
    }

    func testSecretLookingCommandsAreStoredWithAWarningThatDoesNotEchoThem() throws {
        // Every kind of secret and the stored command: HostbookLogicTests/SnippetRulesWordingTests.
        let cases: [(String, String)] = [
            ("sshpass -p Hunter2Secret ssh me@db", "a password option"),
        ]
        for (i, (command, kind)) in cases.enumerated() {
            let r = try hb.run("snippets", "add", "s\(i)", "--command", command)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stderr, "hostbook: warning: the command looks like it contains \(kind); it is stored anyway, but secrets belong in the vault\n")
            for secret in ["Hunter2Secret", "ghp_0123456789", "AKIAIOSFODNN7EXAMPLE", "b3BlbnNzaC1rZXktdjEAAAAA"] {
                XCTAssertFalse(r.stderr.contains(secret) || r.stdout.contains(secret), command)
            }
            XCTAssertEqual(try show("s\(i)")["command"] as? String, command)
        }
        let plain = try hb.ok("snippets", "add", "port", "--command", "ssh -p 2222 me@host")
        XCTAssertEqual(plain.stderr, "")
    }

    func testListOnAMissingDatabase() throws {
        let r = try hb.run("snippets", "list")
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "No snippets.\n")
        XCTAssertEqual(try hb.run("snippets", "list", "--json").stdout, "[]\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: hb.dir.file("data")))
    }
}
