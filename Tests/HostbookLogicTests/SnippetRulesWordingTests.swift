// The snippet rules as the user reads them, in-process: each refusal of SnippetRules turned
// into hostbook's stderr lines and exit code by the executable's presentation (the same
// `UserFacingError` that `Hostbook.main` prints), and what is accepted stored byte for byte
// in a real SQLite file. The command line itself (argv bytes, --command-stdin, the warning
// line) stays in HostbookTests/SnippetCommandTests.
@testable import hostbook
import HostStore
import TestSupport
import XCTest

final class SnippetRulesWordingTests: XCTestCase {
    /// What `Hostbook.report` prints for the refusal of `command`, and the exit status; nil
    /// when the command is accepted.
    private func refusal(_ command: [UInt8]) -> (stderr: String, status: Int32)? {
        do {
            _ = try SnippetRules.command(command)
            return nil
        } catch let error as UserFacingError {
            var text = "hostbook: \(error.message)\n"
            if let hint = error.hint { text += "\(hint)\n" }
            return (text, error.exitCode.rawValue)
        } catch {
            XCTFail("not a user-facing error: \(error)")
            return nil
        }
    }

    private func refusal(_ command: String) -> (stderr: String, status: Int32)? { refusal(Array(command.utf8)) }

    /// Was SnippetCommandTests.testEveryRule (30 runs of the binary).
    func testEveryRuleIsOneLineAndAHintWithExitCode5() {
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
            let r = refusal(command)
            XCTAssertEqual(r?.stderr, stderr, command.debugDescription)
            XCTAssertEqual(r?.status, 5, command.debugDescription)
        }
    }

    /// Was SnippetCommandTests.testSizeLimitIsExactly16KiB (5 runs of the binary).
    func testTheSizeLimitIsExactly16KiBOfUTF8AndTheLimitIsStoredWhole() throws {
        let max = String(repeating: "x", count: 16_384)
        XCTAssertNil(refusal(max))
        let folder = try TempFolder()
        let db = try HostDatabase.open(path: folder.file("hostbook.db"))
        _ = try db.addSnippet(name: "max", command: try SnippetRules.command(Array(max.utf8)), description: nil)
        XCTAssertEqual(try db.snippet(named: "max")?.command.utf8.count, 16_384)

        let over = "hostbook: the command is 16385 bytes long; the limit is 16384 bytes of UTF-8\n"
        XCTAssertEqual(refusal(max + "x")?.stderr, over)
        XCTAssertEqual(refusal(max + "x")?.status, 5)
        // 5462 three-byte characters: 16,386 bytes although only 5462 characters.
        XCTAssertEqual(refusal(String(repeating: "€", count: 5462))?.stderr,
                       "hostbook: the command is 16386 bytes long; the limit is 16384 bytes of UTF-8\n")
        XCTAssertEqual(refusal([0x6c, 0x73, 0x20, 0xff])?.stderr,
                       "hostbook: the command is not valid UTF-8 (first bad byte at offset 3)\n")
    }

    /// Was SnippetCommandTests.testSecretLookingCommandsAreStoredWithAWarningThatDoesNotEchoThem
    /// (all but one case; the warning line itself: SnippetCommandLogicTests).
    func testSecretLookingCommandsAreNamedByKindAndStoredUnchanged() throws {
        let cases: [(String, String)] = [
            ("sshpass -p Hunter2Secret ssh me@db", "a password option"),
            ("mysql -u root --password=Hunter2Secret", "a password option"),
            ("git clone https://ghp_0123456789abcdefghijABCDEFGHIJ0123@github.com/o/r", "an access token"),
            ("AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE aws s3 ls", "an access token"),
            ("echo '-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAA' > k", "a private key"),
            ("curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.Hunter2Secret' https://api", "an Authorization header"),
        ]
        let folder = try TempFolder()
        let db = try HostDatabase.open(path: folder.file("hostbook.db"))
        for (i, (command, kind)) in cases.enumerated() {
            let kinds = SecretHeuristics.findings(in: command).map(\.rawValue)
            XCTAssertEqual(kinds, [kind], command)
            for secret in ["Hunter2Secret", "ghp_0123456789", "AKIAIOSFODNN7EXAMPLE", "b3BlbnNzaC1rZXktdjEAAAAA"] {
                XCTAssertFalse(kinds.joined().contains(secret), command)
            }
            XCTAssertNil(refusal(command), command)
            _ = try db.addSnippet(name: "s\(i)", command: command, description: nil)
            XCTAssertEqual(try db.snippet(named: "s\(i)")?.command, command)
        }
        XCTAssertEqual(SecretHeuristics.findings(in: "ssh -p 2222 me@host"), [])
    }
}
