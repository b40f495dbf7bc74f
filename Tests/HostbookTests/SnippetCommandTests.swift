// End to end: hostbook snippets add / edit / list / show / remove as a command line (argv
// bytes, --command-stdin, output, exit codes, the warning line). Every refusal's wording
// and exit code is checked in-process: HostbookLogicTests/SnippetRulesWordingTests.
import Foundation
import XCTest

final class SnippetCommandTests: XCTestCase {
    var hb: HostbookFixture!

    // XCTest keeps every test case object until the run ends: drop the fixture now so its
    // temporary folder is removed now.
    override func tearDown() { hb = nil }

    override func setUpWithError() throws { hb = try HostbookFixture() }

    func show(_ name: String) throws -> [String: Any] {
        try XCTUnwrap(try hb.json("snippets", "show", name) as? [String: Any])
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

    func testInvalidUTF8IsRefusedFromArgvAndStdin() throws {
        var r = try hb.run(["snippets", "add", "bad", "--command-stdin"], bytes: Data([0x6c, 0x73, 0x20, 0xff, 0x0a]))
        XCTAssertEqual(r.status, 5)
        XCTAssertEqual(r.stderr, "hostbook: the command is not valid UTF-8 (first bad byte at offset 3)\n")
        // argv bytes: passed through a shell so the invalid byte reaches hostbook unrepaired.
        let sh = Process()
        try TestAccount.prepare(sh, ["/bin/sh", "-c", "exec \"$0\" snippets add bad --command \"$(printf 'ls \\355\\240\\200')\"",
                                     HostbookProcess.binaryURL.path], environment: hb.environment, removing: [], account: hb.account, terminal: nil)
        let err = Pipe()
        sh.standardError = err
        try sh.run()
        sh.waitUntilExit()
        XCTAssertEqual(sh.terminationStatus, 5)
        XCTAssertEqual(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                       "hostbook: the command is not valid UTF-8 (first bad byte at offset 3)\n")
        r = try hb.run("snippets", "list", "--json")
        XCTAssertEqual(r.stdout, "[]\n")
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
}
