// Text from outside cannot draw on the terminal: a key comment holding ESC [2J (clear the
// screen), a line break and a forged `fingerprint:` line is printed escaped by `keys import`,
// `keys show` and `keys public`, in-process (InProcessCommand runs Hostbook.main), with
// ssh-keygen writing the key and the real vault (scripts/with-keyring). Moved from
// HostbookTests/TerminalEscapingTests.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class TerminalEscapingTests: XCTestCase {
    static let comment = "owner\u{1B}[2J\nfingerprint: SHA256:forgedforgedforgedforgedforgedforgedforgedf"
    static let escaped = #"owner\u{1b}[2J\u{a}fingerprint: SHA256:forgedforgedforgedforgedforgedforgedforgedf"#

    /// An unencrypted openssh-key-v1 file whose comment is `comment`, named `name`.
    func hostileKey(_ fx: InProcessCommand, name: String = "hostile") throws -> String {
        let path = fx.dir.file(name)
        let r = try Tool.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", Self.comment, "-f", path])
        XCTAssertEqual(r.status, 0, r.stderr)
        return path
    }

    /// No ESC anywhere, `lines` lines, and the comment in its escaped form.
    func assertEscaped(_ out: String, lines: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(out.unicodeScalars.contains("\u{1B}"), out.debugDescription, file: file, line: line)
        XCTAssertEqual(out.split(separator: "\n", omittingEmptySubsequences: false).count, lines + 1, out, file: file, line: line)
        XCTAssertTrue(out.contains(Self.escaped), out, file: file, line: line)
    }

    func testKeysImportPrintsTheCommentEscaped() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else { throw XCTSkip("no D-Bus session: run the tests inside scripts/with-keyring") }
        let fx = try InProcessCommand()
        let r = try fx.ok("keys", "import", try hostileKey(fx))
        XCTAssertEqual(r.stderr, "")
        assertEscaped(r.stdout, lines: 1)
        XCTAssertTrue(r.stdout.hasPrefix("Imported key 'hostile': 256 SHA256:"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix(" \(Self.escaped) (ED25519)\n"), r.stdout)
    }

    func testKeysShowPrintsOneFingerprintLineAndTheCommentEscaped() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else { throw XCTSkip("no D-Bus session: run the tests inside scripts/with-keyring") }
        let fx = try InProcessCommand()
        try fx.ok("keys", "import", try hostileKey(fx))
        let show = try fx.ok("keys", "show", "hostile")
        assertEscaped(show.stdout, lines: 13)
        let lines = show.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("fingerprint:") }.count, 1, show.stdout)
        XCTAssertEqual(lines[4], "comment:      " + Self.escaped)
        let publicKey = try XCTUnwrap(lines.first { $0.hasPrefix("public key:") }, show.stdout)
        XCTAssertTrue(publicKey.hasPrefix("public key:   ssh-ed25519 AAAA"), publicKey)
        XCTAssertTrue(publicKey.hasSuffix(" " + Self.escaped), publicKey)

        // The randomart is hostbook's own drawing: its 11 lines stay lines.
        let art = try fx.ok("keys", "show", "hostile", "--randomart")
        assertEscaped(art.stdout, lines: 24)
        XCTAssertTrue(art.stdout.contains("\n+--[ED25519 256]--+\n"), art.stdout)

        // The comment in JSON is JSON's business: the string holds the comment exactly.
        let o = try XCTUnwrap(try fx.json("keys", "show", "hostile") as? [String: Any])
        XCTAssertEqual(o["comment"] as? String, Self.comment)
    }

    /// A public line appended to authorized_keys must stay one line.
    func testKeysPublicPrintsOneLine() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else { throw XCTSkip("no D-Bus session: run the tests inside scripts/with-keyring") }
        let fx = try InProcessCommand()
        try fx.ok("keys", "import", try hostileKey(fx))
        let pub = try fx.ok("keys", "public", "hostile")
        assertEscaped(pub.stdout, lines: 1)
        XCTAssertTrue(pub.stdout.hasPrefix("ssh-ed25519 AAAA"), pub.stdout)
    }
}
