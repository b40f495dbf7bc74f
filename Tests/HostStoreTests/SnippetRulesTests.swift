// The snippet rules of docs/snippets.md, byte for byte.
@testable import HostStore
import XCTest

final class SnippetRulesTests: XCTestCase {
    func message(_ bytes: [UInt8]) -> String? {
        do { _ = try SnippetRules.command(bytes); return nil } catch { return (error as? HostStoreError)?.message }
    }

    func testAcceptedExactlyAsGiven() throws {
        for ok in ["ls -la", "  padded  ", "echo 'héllo wörld' | grep ö", "df -h # ✓", "a\u{00A0}b"] {
            XCTAssertEqual(try SnippetRules.command(Array(ok.utf8)), ok)
        }
        let max = [UInt8](repeating: UInt8(ascii: "x"), count: 16_384)
        XCTAssertEqual(try SnippetRules.command(max).utf8.count, 16_384)
    }

    func testRefusals() {
        let table: [([UInt8], String)] = [
            ([], "the command is empty"),
            (Array("   ".utf8), "the command is only whitespace"),
            (Array(" \u{3000}\u{00A0}".utf8), "the command is only whitespace"),
            ([UInt8](repeating: UInt8(ascii: "x"), count: 16_385), "the command is 16385 bytes long; the limit is 16384 bytes of UTF-8"),
            ([0x6c, 0x73, 0xff], "the command is not valid UTF-8 (first bad byte at offset 2)"),
            ([0x61, 0xc0, 0xaf], "the command is not valid UTF-8 (first bad byte at offset 1)"), // overlong '/'
            ([0xed, 0xa0, 0x80], "the command is not valid UTF-8 (first bad byte at offset 0)"), // surrogate
            ([0x61, 0xe2, 0x82], "the command is not valid UTF-8 (first bad byte at offset 1)"), // truncated
            (Array("ls\nrm -rf /".utf8), "the command contains a line break at character 3"),
            (Array("ls\r".utf8), "the command contains a line break at character 3"),
            (Array("a\u{2028}b".utf8), "the command contains a line break at character 2"),
            (Array("a\tb".utf8), "the command contains a control character (U+0009) at character 2"),
            (Array("a\u{0}b".utf8), "the command contains a control character (U+0000) at character 2"),
            (Array("a\u{1B}[31m".utf8), "the command contains a control character (U+001B) at character 2"),
            (Array("a\u{7F}".utf8), "the command contains a control character (U+007F) at character 2"),
            (Array("a\u{9B}".utf8), "the command contains a control character (U+009B) at character 2"),
            (Array("ls \u{202E}txt.exe".utf8), "the command contains a Unicode bidirectional control (U+202E) at character 4"),
            (Array("x\u{2066}y".utf8), "the command contains a Unicode bidirectional control (U+2066) at character 2"),
            (Array("x\u{2069}".utf8), "the command contains a Unicode bidirectional control (U+2069) at character 2"),
            (Array("x\u{202A}".utf8), "the command contains a Unicode bidirectional control (U+202A) at character 2"),
        ]
        for (bytes, expected) in table { XCTAssertEqual(message(bytes), expected, "\(bytes.prefix(12))") }
        // Over the limit in multi-byte characters: 5462 × 3 bytes = 16,386.
        XCTAssertEqual(message(Array(String(repeating: "€", count: 5462).utf8)), "the command is 16386 bytes long; the limit is 16384 bytes of UTF-8")
    }

    func testSecretsAreRecognisedByKind() {
        let table: [(String, [SecretHeuristics.Finding])] = [
            ("sshpass -p hunter2 ssh me@host", [.passwordOption]),
            ("mysql -u root -phunter22 db", [.passwordOption]),
            ("tool --password=hunter2", [.passwordOption]),
            ("tool --password hunter2", [.passwordOption]),
            ("PGPASSWORD=hunter2 psql", [.passwordVariable]),
            ("GITHUB_TOKEN=abc gh pr list", [.passwordVariable]),
            ("git clone https://ghp_0123456789abcdefghij0123456789abcdef@github.com/x/y", [.accessToken]),
            ("aws --key AKIAIOSFODNN7EXAMPLE s3 ls", [.accessToken]),
            ("echo '-----BEGIN OPENSSH PRIVATE KEY-----' > k", [.privateKey]),
            ("curl -H 'Authorization: Bearer abc.def' https://api", [.authorizationHeader]),
            ("curl https://me:hunter2@example.com/", [.urlCredentials]),
            ("ssh -p 2222 me@host", []),
            ("ssh -p2222 me@host", []),
            ("find . -print", []),
            ("ls -la", []),
            ("git push --force-with-lease", []),
            ("curl https://example.com/a@b", []),
        ]
        for (cmd, expected) in table { XCTAssertEqual(SecretHeuristics.findings(in: cmd), expected, cmd) }
    }
}
