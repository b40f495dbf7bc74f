// The database tells the truth (issue 10), in-process (InProcessCommand runs Hostbook.main
// on real files): a file that is not SQLite, a folder at the database's path and a
// symbolic link are errors for every command, never an empty store. Moved from
// HostbookTests/DatabaseTruthTests, which keeps what needs the binary as another user
// (permissions, ownership, a read-only folder) or with no Secret Service.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class DatabaseTruthLogicTests: XCTestCase {
    func testAFileThatIsNotSQLiteIsAnErrorEverywhere() throws {
        let hb = try InProcessCommand()
        try FileManager.default.createDirectory(atPath: hb.dir.file("data"), withIntermediateDirectories: true)
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: URL(fileURLWithPath: hb.db))
        chmod(hb.db, 0o600)
        chmod(hb.dir.file("data"), 0o700)
        for (args, _) in ReadOnlyCommands.all where args.first != "doctor" {
            let r = try hb.run(args)
            XCTAssertEqual(r.status, 1, "\(args): \(r.stdout)")
            XCTAssertEqual(r.stdout, "", "\(args)")
            XCTAssertTrue(r.stderr.hasPrefix("hostbook: '\(hb.db)' is not a usable hostbook database: file is not a database\n"), "\(args): \(r.stderr)")
        }
        let d = try hb.run("doctor")
        XCTAssertEqual(d.status, 1)
        XCTAssertTrue(d.stdout.contains("error: the database cannot be read"), d.stdout)
    }

    /// A folder at the database's path (what an I/O error looks like from here).
    func testAFolderAtTheDatabasePathIsAnError() throws {
        let hb = try InProcessCommand()
        try FileManager.default.createDirectory(atPath: hb.db, withIntermediateDirectories: true)
        chmod(hb.dir.file("data"), 0o700)
        for args in [["list"], ["keys", "list"], ["add", "x", "--hostname", "x"]] {
            try hb.fails(args, status: 1, stderr: "hostbook: refusing the database '\(hb.db)': it is not a regular file\n"
                + "Choose a database file with --db or $HOSTBOOK_DB.\n")
        }
    }

    func testASymbolicLinkIsRefused() throws {
        let hb = try InProcessCommand()
        try hb.ok("add", "web", "--hostname", "web.example")
        let link = hb.dir.file("data/link.db")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: hb.db)
        let expected = "hostbook: refusing the database '\(link)': it is a symbolic link (to '\(hb.db)')\n"
            + "Give the file itself: --db '\(hb.db)' (or set HOSTBOOK_DB to it), or replace the link with the file.\n"
        for args in [["list"], ["show", "web"], ["add", "x", "--hostname", "x"], ["keys", "list"], ["known-hosts", "export"]] {
            try hb.fails(["--db", link] + args, status: 1, stderr: expected)
        }
        let d = try hb.run("--db", link, "doctor")
        XCTAssertEqual(d.status, 1)
        XCTAssertTrue(d.stdout.contains("error: refusing the database '\(link)': it is a symbolic link"), d.stdout)
    }
}
