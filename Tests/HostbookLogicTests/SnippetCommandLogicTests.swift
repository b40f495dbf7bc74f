// `hostbook snippets add / edit / show / list / remove` in-process (InProcessCommand runs
// Hostbook.main): commands kept exactly as typed in show's text and JSON, --command-stdin,
// the secret warning on stderr, an empty list without a database, edit/list/remove with
// their refusals and exit codes. Moved from HostbookTests/SnippetCommandTests, which keeps
// invalid UTF-8 in argv bytes on the binary.
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

    func testCommandStdinStripsExactlyOneNewline() throws {
        try hb.ok("snippets", "add", "a", "--command-stdin", stdin: "echo hi  \n")
        XCTAssertEqual(try show("a")["command"] as? String, "echo hi  ")
        try hb.ok("snippets", "add", "b", "--command-stdin", stdin: "echo no newline")
        XCTAssertEqual(try show("b")["command"] as? String, "echo no newline")
        try hb.fails(["snippets", "add", "c", "--command-stdin"], stdin: "echo two\n\n", status: 5,
                     stderr: "hostbook: the command contains a line break at character 9\nA snippet is one command line; join the commands with ';' or '&&'.\n")
        try hb.fails(["snippets", "add", "c", "--command-stdin"], stdin: "echo crlf\r\n", status: 5,
                     stderr: "hostbook: the command contains a line break at character 10\nA snippet is one command line; join the commands with ';' or '&&'.\n")
    }

    func testEditListRemove() throws {
        try hb.ok("snippets", "add", "b", "--command", "uptime")
        try hb.ok("snippets", "add", "a", "--command", "df -h", "--description", "disk")
        XCTAssertEqual(try hb.ok("snippets", "list").stdout, """
            NAME  COMMAND  DESCRIPTION
            a     df -h    disk
            b     uptime   -

            """)
        XCTAssertEqual(try hb.ok("snippets", "edit", "b", "--rename", "up", "--command-stdin", stdin: "uptime -p\n").stdout, "Updated snippet 'up'.\n")
        XCTAssertEqual(try show("up")["command"] as? String, "uptime -p")
        try hb.ok("snippets", "edit", "a", "--description", "")
        XCTAssertTrue(try show("a")["description"] is NSNull)
        let list = try XCTUnwrap(try hb.json("snippets", "list") as? [[String: Any]])
        XCTAssertEqual(list.map { $0["name"] as? String }, ["a", "up"])

        let hint = "See 'hostbook snippets list' for the snippets there are.\n"
        try hb.fails(["snippets", "edit", "up", "--rename", "A"], status: 5, stderr: "hostbook: a snippet named 'a' already exists\nChoose another name.\n")
        try hb.fails(["snippets", "add", "UP", "--command", "x"], status: 5,
                     stderr: "hostbook: a snippet named 'up' already exists\nChoose another name, or change it with 'hostbook snippets edit up'.\n")
        try hb.fails(["snippets", "add", "bad name", "--command", "x"], status: 5,
                     stderr: "hostbook: invalid snippet name 'bad name': use 1 to 64 letters, digits, '.', '_' or '-'\n")
        try hb.fails(["snippets", "add", "n"], status: 2,
                     stderr: "hostbook: 'hostbook snippets add' needs --command TEXT or --command-stdin\nRun 'hostbook snippets add --help' for usage.\n")
        try hb.fails(["snippets", "add", "n", "--command", "x", "--command-stdin"], status: 2,
                     stderr: "hostbook: --command and --command-stdin cannot be used together\nRun 'hostbook snippets add --help' for usage.\n")
        try hb.fails(["snippets", "edit", "up"], status: 2,
                     stderr: "hostbook: nothing to change for snippet 'up'\nRun 'hostbook snippets edit --help' for the options.\n")
        try hb.fails(["snippets", "edit", "up", "--command", "a\nb"], status: 5,
                     stderr: "hostbook: the command contains a line break at character 2\nA snippet is one command line; join the commands with ';' or '&&'.\n")
        try hb.fails(["snippets", "add", "d", "--command", "x", "--description", "a\u{202E}b"], status: 5,
                     stderr: "hostbook: the description contains a Unicode bidirectional control (U+202E) at character 2\n")
        try hb.fails(["snippets", "show", "nope"], status: 4, stderr: "hostbook: no snippet named 'nope'\n" + hint)
        try hb.fails(["snippets", "edit", "nope", "--command", "x"], status: 4, stderr: "hostbook: no snippet named 'nope'\n" + hint)
        try hb.fails(["snippets", "remove", "nope", "--yes"], status: 4, stderr: "hostbook: no snippet named 'nope'\n" + hint)
        try hb.fails(["snippets", "remove", "up"], status: 3, stderr: "hostbook: confirmation is needed but there is no terminal\nUse --yes instead.\n")
        XCTAssertEqual(try hb.ok("snippets", "remove", "UP", "--yes").stdout, "Removed snippet 'up'.\n")
        XCTAssertEqual((try hb.json("snippets", "list") as? [Any])?.count, 1)
    }

    /// Was the stdin half of SnippetCommandTests.testInvalidUTF8IsRefusedFromArgvAndStdin
    /// (the argv half stays on the binary).
    func testInvalidUTF8IsRefusedFromStdin() throws {
        let r = try hb.call(["snippets", "add", "bad", "--command-stdin"], bytes: Data([0x6c, 0x73, 0x20, 0xff, 0x0a]))
        XCTAssertEqual(r.status, 5)
        XCTAssertEqual(r.stderr, "hostbook: the command is not valid UTF-8 (first bad byte at offset 3)\n")
        XCTAssertEqual(try hb.run("snippets", "list", "--json").stdout, "[]\n")
    }
}
