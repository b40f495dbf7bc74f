// Tables fit $COLUMNS on a pipe, in-process (InProcessCommand runs Hostbook.main): long
// fields are cut with '…' and columns stay aligned in terminal columns (CJK and emoji take
// two); --wide and a plain pipe show everything; every cell is escaped. Moved from
// HostbookTests/TableWidthTests, which keeps the tables on a pseudo-terminal.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class TableWidthLogicTests: XCTestCase {
    var hb: InProcessCommand!

    override func setUpWithError() throws { hb = try InProcessCommand() }
    override func tearDown() { hb = nil }

    func addSnippets() throws {
        try hb.ok("snippets", "add", "jp", "--command", "echo 日本語のテキスト", "--description", "説明文です")
        try hb.ok("snippets", "add", "rocket", "--command", "echo 🚀 launch", "--description", "e\u{301}toile 🚀")
        try hb.ok("snippets", "add", "backup", "--command", "tar -czf /srv/backup/nightly.tar.gz /var/lib/postgresql/16/main",
                  "--description", "nightly backup of the database")
    }


    func testColumnsOnAPipeFitsAndWideShowsEverything() throws {
        try addSnippets()
        let whole = try hb.ok("snippets", "list").stdout
        XCTAssertTrue(whole.contains("/var/lib/postgresql/16/main"), "a pipe without COLUMNS gets everything")
        XCTAssertFalse(whole.contains("…"))
        TableColumns.assertAligned(whole, headers: ["NAME", "COMMAND", "DESCRIPTION"], width: nil)

        hb.environment["COLUMNS"] = "50"
        let fitted = try hb.ok("snippets", "list").stdout
        XCTAssertTrue(fitted.contains("…"), fitted)
        XCTAssertFalse(fitted.contains("\u{1B}"), "no colour on a pipe")
        TableColumns.assertAligned(fitted, headers: ["NAME", "COMMAND", "DESCRIPTION"], width: 50)
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
            TableColumns.assertAligned(out, headers: ["NAME", "COMMAND", "DESCRIPTION"], width: columns.flatMap { Int($0) })
            if columns == nil { for d in descriptions { XCTAssertTrue(out.contains(d), d) } }
        }
    }

    func testKnownHostsAndKeysListsFitToo() throws {
        let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK9ks7jkua5YWIwByRnnnc6UPJQWI75O0e/UJdPYU1JI"
        try hb.ok("known-hosts", "approve", "a-rather-long-host-name.internal.example.com", "--key", key, "--yes")
        hb.environment["COLUMNS"] = "70"
        let list = try hb.ok("known-hosts", "list").stdout
        TableColumns.assertAligned(list, headers: ["HOST", "PORT", "TYPE", "FINGERPRINT", "MARKER", "SOURCE"], width: 70)
        XCTAssertTrue(list.contains("…"))
        hb.environment["COLUMNS"] = nil
        XCTAssertTrue(try hb.ok("known-hosts", "list").stdout.contains("a-rather-long-host-name.internal.example.com"))
    }

    func testKeyCommentsAreEscapedInTheTable() throws {
        let path = hb.dir.file("evil")
        let gen = try Tool.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "me\u{1B}]0;pwned\u{07}@host", "-f", path])
        XCTAssertEqual(gen.status, 0, gen.stderr)
        try hb.ok("keys", "import", path)
        let out = try hb.ok("keys", "list").stdout
        XCTAssertFalse(out.contains("\u{1B}") || out.contains("\u{07}"), out.debugDescription)
        XCTAssertTrue(out.contains("me\\u{1b}]0;pwned\\u{7}@host"), out)
        hb.environment["COLUMNS"] = "60"
        let fitted = try hb.ok("keys", "list").stdout
        TableColumns.assertAligned(fitted, headers: ["NAME", "TYPE", "BITS", "FINGERPRINT", "COMMENT"], width: 60)
    }
}
