// What `import-ssh-config --take-over` comments out of a user's ssh_config text, in-process
// (SSHConfigTakeOver): a Host block only when every one of its names was imported; a block
// with a pattern, a negation, another name or an Include reported and left; Match blocks
// and everything outside the blocks untouched; CR LF kept; each block marked with hostbook
// and the date; and `undo` giving back the very bytes. The real ssh (`ssh -G -F`) reads the
// result as a file without those blocks.
import Foundation
import XCTest
import Sessions
import TestSupport

final class SSHConfigTakeOverTests: XCTestCase {
    private let original = """
        # my hosts
        Host *
          ServerAliveInterval 30

        Host db
          HostName 10.0.0.7
          User root
        # the web servers

        Host web staging-*
          HostName web.example

        Match host db
          User admin

        Host api api2
          HostName api.example
          Include extra.conf

        Host cache
          HostName cache.example
        """

    private func plan(_ text: String, _ imported: Set<String>) throws -> SSHConfigTakeOver.Plan {
        try SSHConfigTakeOver.plan(file: "config", bytes: Array(text.utf8), imported: imported, date: "2026-12-07")
    }

    func testOnlyBlocksWhoseEveryNameWasImportedAreCommentedOut() throws {
        let p = try plan(original, ["db", "web", "api", "api2", "cache"])
        XCTAssertEqual(p.taken.map(\.line), [5, 20])
        XCTAssertEqual(p.left.map(\.line), [10, 16])
        XCTAssertTrue(p.left[0].reason.contains("pattern") && p.left[0].reason.contains("staging-*"), p.left[0].reason)
        XCTAssertTrue(p.left[1].reason.contains("Include"), p.left[1].reason)
        let marker = SSHConfigTakeOver.marker(date: "2026-12-07")
        XCTAssertTrue(marker.contains("hostbook") && marker.contains("2026-12-07") && marker.contains("--uninstall --restore"), marker)
        let expected = """
            # my hosts
            Host *
              ServerAliveInterval 30

            \(marker)
            #hostbook# Host db
            #hostbook#   HostName 10.0.0.7
            #hostbook#   User root
            # the web servers

            Host web staging-*
              HostName web.example

            Match host db
              User admin

            Host api api2
              HostName api.example
              Include extra.conf

            \(marker)
            #hostbook# Host cache
            #hostbook#   HostName cache.example
            """
        XCTAssertEqual(String(decoding: p.text, as: UTF8.self), expected)
        XCTAssertEqual(SSHConfigTakeOver.undo(p.text), Array(original.utf8))
        XCTAssertTrue(SSHConfigTakeOver.holdsTakeOver(p.text))
        XCTAssertFalse(SSHConfigTakeOver.holdsTakeOver(Array(original.utf8)))
    }

    func testABlockNamingAHostNotImportedIsLeftAndNoneNamingAnImportedHostIsUntouched() throws {
        let p = try plan("Host a b\n  Port 2\nHost c\n  Port 3\n", ["a"])
        XCTAssertEqual(p.taken, [])
        XCTAssertEqual(p.left.map(\.line), [1])
        XCTAssertTrue(p.left[0].reason.contains("not imported") && p.left[0].reason.contains("b"), p.left[0].reason)
        XCTAssertEqual(p.text, Array("Host a b\n  Port 2\nHost c\n  Port 3\n".utf8))
        let negated = try plan("Host a !b\n  Port 2\n", ["a"])
        XCTAssertEqual(negated.taken, [])
        XCTAssertTrue(negated.left.first?.reason.contains("negation") == true)
    }

    func testCRLFLinesKeepTheirEndingsAndUndoGivesTheSameBytes() throws {
        let text = "Host db\r\n  HostName 10.0.0.7\r\n\r\nHost other\r\n  Port 2\r\n"
        let p = try plan(text, ["db"])
        let marker = SSHConfigTakeOver.marker(date: "2026-12-07")
        XCTAssertEqual(String(decoding: p.text, as: UTF8.self),
                       "\(marker)\r\n#hostbook# Host db\r\n#hostbook#   HostName 10.0.0.7\r\n\r\nHost other\r\n  Port 2\r\n")
        XCTAssertEqual(SSHConfigTakeOver.undo(p.text), Array(text.utf8))
        // A last line with no line break stays without one.
        let open = try plan("Host db\n  Port 2", ["db"])
        XCTAssertEqual(String(decoding: open.text, as: UTF8.self), "\(marker)\n#hostbook# Host db\n#hostbook#   Port 2")
    }

    /// ssh reads the result as if the blocks were gone: `ssh -G` of a taken-over name gets
    /// nothing of its old block, and the other hosts keep theirs.
    func testSSHReadsTheTakenOverFileWithoutTheBlocks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("takeover-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = "Host db\r\n  HostName 10.0.0.7\r\n  Port 2222\r\nHost other\r\n  HostName other.example\r\n"
        let p = try plan(text, ["db"])
        let file = folder + "/config"
        try Data(p.text).write(to: URL(fileURLWithPath: file))
        func resolve(_ name: String) throws -> String {
            let r = try Tool.output("/usr/bin/ssh", ["-G", "-F", file, name])
            XCTAssertEqual(r.status, 0)
            return r.stdout
        }
        let db = try resolve("db")
        XCTAssertTrue(db.contains("\nhostname db\n") && db.contains("\nport 22\n"), db)
        XCTAssertTrue(try resolve("other").contains("\nhostname other.example\n"))
    }
}
