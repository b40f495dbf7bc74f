// End to end: hostbook snippets add / edit / list / show / remove and every snippet rule.
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

    func testSizeLimitIsExactly16KiB() throws {
        let max = String(repeating: "x", count: 16_384)
        try hb.ok("snippets", "add", "max", "--command-stdin", stdin: max + "\n")
        XCTAssertEqual((try show("max")["command"] as? String)?.utf8.count, 16_384)
        try hb.ok("snippets", "add", "max2", "--command", max)
        try hb.fails(["snippets", "add", "over", "--command-stdin"], stdin: max + "x", status: 5,
                     stderr: "hostbook: the command is 16385 bytes long; the limit is 16384 bytes of UTF-8\n")
        try hb.fails(["snippets", "add", "over", "--command", max + "x"], status: 5,
                     stderr: "hostbook: the command is 16385 bytes long; the limit is 16384 bytes of UTF-8\n")
        // 5462 three-byte characters: 16,386 bytes although only 5462 characters.
        try hb.fails(["snippets", "add", "over", "--command", String(repeating: "€", count: 5462)], status: 5,
                     stderr: "hostbook: the command is 16386 bytes long; the limit is 16384 bytes of UTF-8\n")
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

    func testEveryRule() throws {
        let lineHint = "A snippet is one command line; join the commands with ';' or '&&'.\n"
        let controlHint = "Remove the control character; a snippet is printable text.\n"
        let bidiHint = "These characters can make a command read differently from what runs; remove them.\n"
        let cases: [(String, String)] = [
            ("", "hostbook: the command is empty\n"),
            ("   ", "hostbook: the command is only whitespace\n"),
            ("\u{3000}", "hostbook: the command is only whitespace\n"),
            ("ls\nrm -rf ~", "hostbook: the command contains a line break at character 3\n" + lineHint),
            ("ls\r", "hostbook: the command contains a line break at character 3\n" + lineHint),
            ("a\u{2029}", "hostbook: the command contains a line break at character 2\n" + lineHint),
            ("a\tb", "hostbook: the command contains a control character (U+0009) at character 2\n" + controlHint),
            ("printf \u{1B}[2J", "hostbook: the command contains a control character (U+001B) at character 8\n" + controlHint),
            ("x\u{7F}", "hostbook: the command contains a control character (U+007F) at character 2\n" + controlHint),
            ("x\u{85}", "hostbook: the command contains a line break at character 2\n" + lineHint),
            ("x\u{90}", "hostbook: the command contains a control character (U+0090) at character 2\n" + controlHint),
            ("cat notes\u{202E}txt.sh", "hostbook: the command contains a Unicode bidirectional control (U+202E) at character 10\n" + bidiHint),
            ("a\u{202A}", "hostbook: the command contains a Unicode bidirectional control (U+202A) at character 2\n" + bidiHint),
            ("a\u{2066}b\u{2069}", "hostbook: the command contains a Unicode bidirectional control (U+2066) at character 2\n" + bidiHint),
            ("a\u{2068}", "hostbook: the command contains a Unicode bidirectional control (U+2068) at character 2\n" + bidiHint),
        ]
        for (command, stderr) in cases {
            try hb.fails(["snippets", "add", "s", "--command", command], status: 5, stderr: stderr)
            try hb.fails(["snippets", "add", "s", "--command-stdin"], stdin: command, status: 5, stderr: stderr)
        }
        XCTAssertEqual(try hb.run("snippets", "list", "--json").stdout, "[]\n")
    }

    func testSecretLookingCommandsAreStoredWithAWarningThatDoesNotEchoThem() throws {
        let cases: [(String, String)] = [
            ("sshpass -p Hunter2Secret ssh me@db", "a password option"),
            ("mysql -u root --password=Hunter2Secret", "a password option"),
            ("git clone https://ghp_0123456789abcdefghijABCDEFGHIJ0123@github.com/o/r", "an access token"),
            ("AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE aws s3 ls", "an access token"),
            ("echo '-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAA' > k", "a private key"),
            ("curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.Hunter2Secret' https://api", "an Authorization header"),
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

    func testListOnAMissingDatabase() throws {
        let r = try hb.run("snippets", "list")
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "No snippets.\n")
        XCTAssertEqual(try hb.run("snippets", "list", "--json").stdout, "[]\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: hb.dir.file("data")))
    }
}
