// The line splitter against the rules of readconf.c / misc.c (docs/formats.md, "ssh_config text").
import SSHConfig
import XCTest

final class SSHConfigLexerTests: XCTestCase {
    func split(_ s: String) throws -> SSHConfigLine? { try SSHConfigLexer.split(s) }

    func testKeywordAndArguments() throws {
        let cases: [(String, String, [String])] = [
            ("HostName 10.0.0.5", "hostname", ["10.0.0.5"]),
            ("hostname=10.0.0.5", "hostname", ["10.0.0.5"]),
            ("port = 2200", "port", ["2200"]),
            ("  PORT\t=\t2200  \r", "port", ["2200"]),
            ("HostName a#b # note", "hostname", ["a#b"]),
            ("IdentityFile \"/tmp/a \\\"q\\\" b\"", "identityfile", ["/tmp/a \"q\" b"]),
            ("IdentityFile '/tmp/x y'", "identityfile", ["/tmp/x y"]),
            ("IdentityFile /tmp/back\\ slash", "identityfile", ["/tmp/back slash"]),
            ("IdentityFile /tmp/a\\b", "identityfile", ["/tmp/a\\b"]),
            ("IdentityFile ab\"c d\"e", "identityfile", ["abc de"]),
            ("Host a b\t!c", "host", ["a", "b", "!c"]),
            ("Host a,b", "host", ["a,b"]),
            ("Host=a=b", "host", ["a=b"]),
            ("User x\u{0c}", "user", ["x"]),
        ]
        for (line, keyword, args) in cases {
            let l = try XCTUnwrap(try split(line), line)
            XCTAssertEqual(l.keyword, keyword, line)
            XCTAssertEqual(l.arguments, args, line)
        }
    }

    func testBlankAndCommentLinesAreNothing() throws {
        for line in ["", " ", "\t\t", "# comment", "   #x y", "#"] {
            XCTAssertNil(try split(line), line)
        }
    }

    func testErrorsSshReports() {
        XCTAssertThrowsError(try split("HostName \"unterminated")) { XCTAssertEqual($0 as? SSHConfigLexer.Problem, .invalidQuotes) }
        XCTAssertThrowsError(try split("HostName")) { XCTAssertEqual($0 as? SSHConfigLexer.Problem, .noArgument(keyword: "hostname")) }
        XCTAssertThrowsError(try split("Port =   ")) { XCTAssertEqual($0 as? SSHConfigLexer.Problem, .noArgument(keyword: "port")) }
    }

    func testRestKeepsTheRawCommand() throws {
        let l = try XCTUnwrap(try split("ProxyCommand ssh -W %h:%p \"jump host\" # x"))
        XCTAssertEqual(l.rest, "ssh -W %h:%p \"jump host\" # x")
    }

    func testPatterns() {
        XCTAssertTrue(HostPatternMatch.matches("web1.example.com", pattern: "*.example.com"))
        XCTAssertTrue(HostPatternMatch.matches("ab", pattern: "a?"))
        XCTAssertFalse(HostPatternMatch.matches("abc", pattern: "a?"))
        XCTAssertTrue(HostPatternMatch.matches("aaaaaaaaaaaaaaaaaaaaaaaaaaaaab", pattern: "*a*a*a*a*a*a*a*b"))
        XCTAssertFalse(HostPatternMatch.matches("WEB", pattern: "web"))
        XCTAssertTrue(HostPatternMatch.hostLineMatches("x.example.com", patterns: ["*.example.com", "!bad.example.com"]))
        XCTAssertFalse(HostPatternMatch.hostLineMatches("bad.example.com", patterns: ["*.example.com", "!bad.example.com"]))
        XCTAssertFalse(HostPatternMatch.hostLineMatches("x", patterns: ["!y"]))
        XCTAssertEqual(HostPatternMatch.listMatch("web", list: "db,WEB", lowercasePatterns: true), 1)
        XCTAssertEqual(HostPatternMatch.listMatch("web", list: "*,!web", lowercasePatterns: true), -1)
    }

    func testJumpValues() {
        XCTAssertEqual(SSHConfigValues.jumpHops("bob@j1:2222,j2"),
                       [.init(user: "bob", host: "j1", port: 2222), .init(user: nil, host: "j2", port: nil)])
        XCTAssertEqual(SSHConfigValues.jumpHops("ssh://u@[::1]:22"), [.init(user: "u", host: "::1", port: 22)])
        XCTAssertEqual(SSHConfigValues.jumpHops("NONE"), [])
        XCTAssertNil(SSHConfigValues.jumpHops("%r@%h:%p"))
        XCTAssertEqual(SSHConfigValues.jumpSpec(" x # c "), "x")
    }
}
