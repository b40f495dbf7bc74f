// The database tells the truth (issue 10), in-process (InProcessCommand runs Hostbook.main
// on real files, as root in CI: the user the trust rule is about): read-only commands create
// nothing, and a database or folder other users can write or another user owns is refused
// with what to fix. Moved from HostbookTests/DatabaseTruthTests, which keeps what needs
// another user's process (a database that user cannot read, a read-only folder).
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class DatabaseTrustLogicTests: XCTestCase {
    func testReadOnlyCommandsCreateNothing() throws {
        let hb = try InProcessCommand()
        for (args, status) in ReadOnlyCommands.all {
            let r = try hb.run(args)
            XCTAssertEqual(r.status, status, "\(args): \(r.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: hb.dir.file("data")), "\(args) created the data folder")
        }
        XCTAssertEqual(try hb.run("keys", "list", "--json").stdout, "[]\n")
        XCTAssertEqual(try hb.run("keys", "show", "k").stderr, "hostbook: no key named 'k'\nRun 'hostbook keys list' to see the keys.\n")
        XCTAssertEqual(try hb.run("doctor").stdout,
                       "Database: none yet at \(hb.db) (the first command that writes creates it).\n\(try SSHDoctorLine.expected())"
                        + "ssh-config: not installed (hostbook ssh-config --install).\nNo problems found.\n")
        _ = try hb.run("vault", "status")
        // Nothing but each call's own standard streams (InProcessCommand's call-N files).
        let made = try FileManager.default.contentsOfDirectory(atPath: hb.dir.path).filter { !$0.hasPrefix("call-") }
        XCTAssertEqual(made, [])
    }

    /// A group with a member other than root: nogroup is the primary group of nobody.
    static func othersGroup() throws -> gid_t {
        guard let group = getgrnam("nogroup"), let nobody = getpwnam("nobody"), nobody.pointee.pw_gid == group.pointee.gr_gid else {
            throw XCTSkip("needs the group nogroup with the user nobody in it")
        }
        return group.pointee.gr_gid
    }

    func testFilesAndFoldersOthersCanWriteAreRefused() throws {
        try XCTSkipUnless(getuid() == 0, "changes the group of files: runs as root (as CI does)")
        let others = try Self.othersGroup()
        let hb = try InProcessCommand()
        try hb.ok("add", "web", "--hostname", "web.example")
        let folder = hb.dir.file("data")
        // Group-writable, and the group has another user in it.
        chmod(hb.db, 0o664)
        XCTAssertEqual(chown(hb.db, 0, others), 0)
        let file = "hostbook: refusing the database '\(hb.db)': other users can write to it (mode 0664)\nRun: chmod 600 '\(hb.db)'\n"
        try hb.fails(["list"], status: 1, stderr: file)
        try hb.fails(["add", "x", "--hostname", "x"], status: 1, stderr: file)
        let d = try hb.run("doctor", "--json")
        XCTAssertEqual(d.status, 1)
        XCTAssertTrue(d.stdout.contains("\"check\": \"database.trust\""), d.stdout)
        chmod(hb.db, 0o600)
        XCTAssertEqual(chown(hb.db, 0, 0), 0)

        for (mode, group) in [(0o770, others), (0o777, 0), (0o1777, 0), (0o707, 0)] as [(mode_t, gid_t)] {
            chmod(folder, mode)
            XCTAssertEqual(chown(folder, 0, group), 0)
            let octal = String(mode, radix: 8)
            let expected = "hostbook: refusing the database '\(hb.db)': other users can write to its folder '\(folder)' (mode \(String(repeating: "0", count: 4 - octal.count) + octal))\n"
                + "Run: chmod 700 '\(folder)', or keep the database in a private folder (--db).\n"
            try hb.fails(["list"], status: 1, stderr: expected)
            try hb.fails(["keys", "list"], status: 1, stderr: expected)
            try hb.fails(["add", "x", "--hostname", "x"], status: 1, stderr: expected)
        }
        chmod(folder, 0o700)
        XCTAssertEqual(chown(folder, 0, 0), 0)
        XCTAssertEqual(try hb.run("list").status, 0)

        // A group that is only this user's (root's primary group, no one else in it) is the
        // user, as Debian's OpenSSH has it: group-writable by it is fine.
        if try Self.groupHasOnlyRoot(0) {
            chmod(hb.db, 0o660)
            chmod(folder, 0o770)
            let r = try hb.run("list")
            XCTAssertEqual(r.status, 0, r.stderr)
            chmod(hb.db, 0o600)
            chmod(folder, 0o700)
        }
    }

    func testAFileOrFolderOwnedByAnotherUserIsRefused() throws {
        try XCTSkipUnless(getuid() == 0, "gives files to another user: runs as root (as CI does)")
        guard let nobody = getpwnam("nobody") else { throw XCTSkip("needs the user nobody") }
        let (uid, gid) = (nobody.pointee.pw_uid, nobody.pointee.pw_gid)
        let hb = try InProcessCommand()
        try hb.ok("add", "web", "--hostname", "web.example")
        let folder = hb.dir.file("data")
        XCTAssertEqual(chown(hb.db, uid, gid), 0)
        let file = "hostbook: refusing the database '\(hb.db)': it is owned by another user (nobody)\n"
            + "Use a database in a folder of your own (--db), or have it owned by you: chown root '\(hb.db)' (as root).\n"
        try hb.fails(["list"], status: 1, stderr: file)
        try hb.fails(["show", "web"], status: 1, stderr: file)
        try hb.fails(["edit", "web", "--port", "2"], status: 1, stderr: file)
        XCTAssertEqual(chown(hb.db, 0, 0), 0)

        XCTAssertEqual(chown(folder, uid, gid), 0)
        let dir = "hostbook: refusing the database '\(hb.db)': its folder '\(folder)' is owned by another user (nobody)\n"
            + "Use a database in a folder of your own (--db), or have it owned by you: chown root '\(folder)' (as root).\n"
        try hb.fails(["list"], status: 1, stderr: dir)
        try hb.fails(["add", "x", "--hostname", "x"], status: 1, stderr: dir)
        XCTAssertEqual(chown(folder, 0, 0), 0)
        XCTAssertEqual(try hb.run("list").status, 0)
    }

    /// From /etc/passwd and /etc/group: no user but root has `gid` as primary group or is a member.
    static func groupHasOnlyRoot(_ gid: gid_t) throws -> Bool {
        let passwd = try String(contentsOfFile: "/etc/passwd", encoding: .utf8).split(separator: "\n")
        let others = passwd.filter { $0.split(separator: ":", omittingEmptySubsequences: false).count > 3 }
            .filter { let f = $0.split(separator: ":", omittingEmptySubsequences: false); return f[3] == "\(gid)" && f[0] != "root" }
        let group = try String(contentsOfFile: "/etc/group", encoding: .utf8).split(separator: "\n")
            .first { $0.split(separator: ":", omittingEmptySubsequences: false).count > 3 && $0.split(separator: ":", omittingEmptySubsequences: false)[2] == "\(gid)" }
        let members = group.map { $0.split(separator: ":", omittingEmptySubsequences: false)[3].split(separator: ",").filter { $0 != "root" } } ?? []
        return others.isEmpty && members.isEmpty
    }
}
