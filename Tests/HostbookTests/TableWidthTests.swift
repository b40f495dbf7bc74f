// Tables fit the terminal: on a pseudo-terminal of a set width and with $COLUMNS on a pipe,
// long fields are cut with '…' and columns stay aligned in terminal columns (CJK and emoji
// take two); --wide and a plain pipe show everything; bold only on a terminal without
// NO_COLOR; every cell is escaped.
import Foundation
import XCTest

final class TableWidthTests: XCTestCase {
    var hb: HostbookFixture!

    override func setUpWithError() throws { hb = try HostbookFixture() }

    /// Terminal columns of the characters these tests use, counted independently of
    /// hostbook: CJK and the emoji take 2, a combining accent 0.
    static func width(_ c: Character) -> Int {
        if c.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }   // emoji presentation asked for
        let v = c.unicodeScalars.first!.value
        if (0x1F1E6...0x1F1FF).contains(v) { return 2 }                             // a flag (regional indicator pair)
        if (0x3040...0x30FF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xAC00...0xD7A3).contains(v) || (0xFF01...0xFF60).contains(v) { return 2 }
        if (0x1F300...0x1FAFF).contains(v) { return 2 }
        return 1
    }
    static func width(_ s: Substring) -> Int { s.reduce(0) { $0 + width($1) } }

    /// The display column where `needle` starts in `line`, or nil.
    static func column(of needle: String, in line: Substring) -> Int? {
        guard let r = line.range(of: needle) else { return nil }
        return width(line[..<r.lowerBound])
    }

    func addSnippets() throws {
        try hb.ok("snippets", "add", "jp", "--command", "echo 日本語のテキスト", "--description", "説明文です")
        try hb.ok("snippets", "add", "rocket", "--command", "echo 🚀 launch", "--description", "e\u{301}toile 🚀")
        try hb.ok("snippets", "add", "backup", "--command", "tar -czf /srv/backup/nightly.tar.gz /var/lib/postgresql/16/main",
                  "--description", "nightly backup of the database")
    }

    /// Each row's cells start where the header's do, in terminal columns.
    func assertAligned(_ text: String, headers: [String], width limit: Int?, file: StaticString = #filePath, line: UInt = #line) {
        let lines = text.split(separator: "\n")
        guard let header = lines.first else { return XCTFail("no table", file: file, line: line) }
        let starts = headers.map { Self.column(of: $0, in: header) ?? -1 }
        for l in lines {
            if let limit { XCTAssertLessThanOrEqual(Self.width(l), limit, "\(l)", file: file, line: line) }
            var col = 0
            var chars: [(Character, Int)] = []
            for c in l { chars.append((c, col)); col += Self.width(c) }
            for s in starts.dropFirst() {
                // Two spaces end the cell before; the next cell starts exactly there.
                let before = chars.filter { $0.1 == s - 1 || $0.1 == s - 2 }.map(\.0)
                XCTAssertEqual(before, [" ", " "], "column \(s) in '\(l)'", file: file, line: line)
                XCTAssertTrue(chars.contains { $0.1 == s && $0.0 != " " }, "no cell at column \(s) in '\(l)'", file: file, line: line)
            }
        }
    }

    func testColumnsOnAPipeFitsAndWideShowsEverything() throws {
        try addSnippets()
        let whole = try hb.ok("snippets", "list").stdout
        XCTAssertTrue(whole.contains("/var/lib/postgresql/16/main"), "a pipe without COLUMNS gets everything")
        XCTAssertFalse(whole.contains("…"))
        assertAligned(whole, headers: ["NAME", "COMMAND", "DESCRIPTION"], width: nil)

        hb.environment["COLUMNS"] = "50"
        let fitted = try hb.ok("snippets", "list").stdout
        XCTAssertTrue(fitted.contains("…"), fitted)
        XCTAssertFalse(fitted.contains("\u{1B}"), "no colour on a pipe")
        assertAligned(fitted, headers: ["NAME", "COMMAND", "DESCRIPTION"], width: 50)
        XCTAssertTrue(fitted.contains("説明文です"), "short wide text is kept whole:\n\(fitted)")

        let wide = try hb.ok("snippets", "list", "--wide").stdout
        XCTAssertEqual(wide, whole)
        // JSON is never cut.
        let json = try XCTUnwrap(try hb.json("snippets", "list") as? [[String: Any]])
        XCTAssertTrue(json.contains { ($0["command"] as? String)?.hasSuffix("/16/main") == true })
    }

    /// Graphemes terminals draw two columns wide although they are several scalars, and
    /// ones that take none: each row still lines up.
    func testEmojiSequencesHangulAndFullwidthLineUp() throws {
        let descriptions = ["family 👨‍👩‍👧 trip", "flag 🇫🇷 and ❤️", "한국어 설명", "ＦＵＬＬ width", "cafe\u{301} noir"]
        for (i, d) in descriptions.enumerated() {
            try hb.ok("snippets", "add", "s\(i)", "--command", "echo \(i) " + String(repeating: "x", count: 30), "--description", d)
        }
        for columns in [nil, "44", "36"] {
            hb.environment["COLUMNS"] = columns
            let out = try hb.ok("snippets", "list").stdout
            assertAligned(out, headers: ["NAME", "COMMAND", "DESCRIPTION"], width: columns.flatMap { Int($0) })
            if columns == nil { for d in descriptions { XCTAssertTrue(out.contains(d), d) } }
        }
    }

    func testOnATerminalTheTableFitsItsWidth() throws {
        for i in 1...3 {
            try hb.ok("add", "web-\(i)", "--hostname", "very-long-hostname-number-\(i).eu-west.example.internal", "--user", "deploy",
                      "--tag", "prod", "--tag", "web", "--tag", "europe-west-\(i)")
        }
        try hb.ok("add", "bastion", "--hostname", "b.example", "--jump", "web-1")
        var colour = hb.environment
        colour["NO_COLOR"] = nil
        for width in [60, 80] {
            let r = try WindowedTerminal.run(["list"], columns: width, onTerminal: [.stdout], environment: colour, account: hb.account)
            XCTAssertEqual(r.status, 0)
            XCTAssertTrue(r.screen.hasPrefix("\u{1B}[1mNAME"), "bold header on a terminal: \(r.screen.debugDescription)")
            let plain = r.screen.replacingOccurrences(of: "\u{1B}[1m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")
                .replacingOccurrences(of: "\r\n", with: "\n")
            XCTAssertTrue(plain.contains("…"), plain)
            XCTAssertTrue(plain.split(separator: "\n")[0].hasPrefix("NAME     HOSTNAME"), plain)
            assertAligned(plain, headers: ["NAME", "HOSTNAME", "PORT", "USER", "AUTH", "JUMP", "TAGS", "SOURCE"], width: width)
            XCTAssertTrue(plain.contains("  web-1  "), "the jump host is shown:\n\(plain)")
        }
        // NO_COLOR: the same table without any escape.
        var env = hb.environment
        env["NO_COLOR"] = "1"
        let r = try WindowedTerminal.run(["list"], columns: 80, onTerminal: [.stdout], environment: env, removing: ["COLUMNS"], account: hb.account)
        XCTAssertFalse(r.screen.contains("\u{1B}"), r.screen.debugDescription)
        // --wide on a terminal: every field whole.
        let wide = try WindowedTerminal.run(["list", "--wide"], columns: 60, onTerminal: [.stdout], environment: env, removing: ["COLUMNS"], account: hb.account)
        XCTAssertTrue(wide.screen.contains("very-long-hostname-number-3.eu-west.example.internal"))
        XCTAssertFalse(wide.screen.contains("…"))
    }

    func testKnownHostsAndKeysListsFitToo() throws {
        let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK9ks7jkua5YWIwByRnnnc6UPJQWI75O0e/UJdPYU1JI"
        try hb.ok("known-hosts", "approve", "a-rather-long-host-name.internal.example.com", "--key", key, "--yes")
        hb.environment["COLUMNS"] = "70"
        let list = try hb.ok("known-hosts", "list").stdout
        assertAligned(list, headers: ["HOST", "PORT", "TYPE", "FINGERPRINT", "MARKER", "SOURCE"], width: 70)
        XCTAssertTrue(list.contains("…"))
        hb.environment["COLUMNS"] = nil
        XCTAssertTrue(try hb.ok("known-hosts", "list").stdout.contains("a-rather-long-host-name.internal.example.com"))
    }

    func testKeyCommentsAreEscapedInTheTable() throws {
        let path = hb.dir.file("evil")
        let gen = try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", "me\u{1B}]0;pwned\u{07}@host", "-f", path])
        XCTAssertEqual(gen.status, 0, gen.stderr)
        try hb.ok("keys", "import", path)
        let out = try hb.ok("keys", "list").stdout
        XCTAssertFalse(out.contains("\u{1B}") || out.contains("\u{07}"), out.debugDescription)
        XCTAssertTrue(out.contains("me\\u{1b}]0;pwned\\u{7}@host"), out)
        hb.environment["COLUMNS"] = "60"
        let fitted = try hb.ok("keys", "list").stdout
        assertAligned(fitted, headers: ["NAME", "TYPE", "BITS", "FINGERPRINT", "COMMENT"], width: 60)
    }

    func testUnencryptedExportIsRefusedOnATerminal() throws {
        try hb.ok("keys", "generate", "k")
        let r = try WindowedTerminal.run(["keys", "export", "k", "--no-passphrase"], columns: 80, onTerminal: [.stdout], environment: hb.environment, account: hb.account)
        XCTAssertEqual(r.status, 5)
        XCTAssertEqual(r.screen, "")
        XCTAssertEqual(r.stderr, "hostbook: refusing to write an unencrypted private key to the terminal\nUse --output FILE, or redirect standard output to a file.\n")
        // A file, or a pipe, still works.
        let file = hb.dir.file("k.key")
        let toFile = try WindowedTerminal.run(["keys", "export", "k", "--no-passphrase", "--output", file], columns: 80, onTerminal: [.stdout], environment: hb.environment, account: hb.account)
        XCTAssertEqual(toFile.status, 0, toFile.stderr)
        XCTAssertTrue(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("-----BEGIN OPENSSH PRIVATE KEY-----"))
        XCTAssertTrue(try hb.ok("keys", "export", "k", "--no-passphrase").stdout.hasPrefix("-----BEGIN OPENSSH PRIVATE KEY-----"))
    }
}
