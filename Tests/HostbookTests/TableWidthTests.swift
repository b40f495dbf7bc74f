// Tables fit the terminal: on a pseudo-terminal of a set width, long fields are cut with '…'
// and columns stay aligned in terminal columns; --wide shows everything; bold only on a
// terminal without NO_COLOR; an unencrypted key is not written to a terminal. $COLUMNS on
// a pipe, wide characters and escaped cells run in-process:
// HostbookLogicTests/TableWidthLogicTests.
import Foundation
import TestSupport
import XCTest

final class TableWidthTests: XCTestCase {
    var hb: HostbookFixture!

    override func setUpWithError() throws { hb = try HostbookFixture() }

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
            TableColumns.assertAligned(plain, headers: ["NAME", "HOSTNAME", "PORT", "USER", "AUTH", "JUMP", "TAGS", "SOURCE"], width: width)
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
