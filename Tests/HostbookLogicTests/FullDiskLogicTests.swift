// A full disk, in-process (InProcessCommand runs Hostbook.main): a 1 MiB tmpfs mounted as
// the data folder (the tests run as root; skipped where mounting is refused). A write that
// does not fit fails with one line and exit 1, and the database is whole with every earlier
// row. Moved from HostbookTests/FaultCampaignTests, which keeps the faults that need a
// process to kill.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class FullDiskLogicTests: XCTestCase {
    func testAFullDiskFailsWithOneLineAndLeavesTheDatabaseWhole() throws {
        let hb = try InProcessCommand()
        let data = hb.dir.file("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        // Mounting needs root (the tests run as root in CI); elsewhere there is no full disk to
        // make without one, and RLIMIT_FSIZE would test a signal (SIGXFSZ), not a full disk.
        try XCTSkipUnless(getuid() == 0, "mounting a tmpfs needs root")
        let mount = try Tool.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", data])
        try XCTSkipUnless(mount.status == 0, "cannot mount a tmpfs here: \(mount.stderr)")
        defer { _ = try? Tool.run("/bin/umount", [data]) }
        try hb.ok("add", "first", "--hostname", "first.example")
        // Fill what is left: the database grows until the disk is full.
        let note = String(repeating: "n", count: 4000)
        var failure: InProcessCommand.Outcome?
        for i in 0..<400 {
            let r = try hb.run(["add", "fill\(i)", "--hostname", "f\(i).example", "--note", note])
            if r.status != 0 { failure = r; break }
        }
        guard let failure else { return XCTFail("the disk never filled") }
        XCTAssertEqual(failure.status, 1, failure.stderr)
        let lines = failure.stderr.split(separator: "\n")
        XCTAssertTrue(lines.first?.hasPrefix("hostbook: ") == true, failure.stderr)
        XCTAssertEqual(failure.stderr, "hostbook: the disk holding the database '\(hb.db)' is full; nothing was written\n"
                       + "Free some space on it, then try again.\n")
        XCTAssertLessThanOrEqual(lines.count, 2, "one line and a hint: \(failure.stderr)")
        XCTAssertEqual(failure.stdout, "")
        let rows = try hb.sql("SELECT count(*) FROM hosts")
        XCTAssertEqual(try hb.sql("PRAGMA integrity_check"), "ok")
        // Reads still work on the full disk.
        XCTAssertEqual((try hb.json("list") as? [Any])?.count, Int(rows))
        // Once there is room again, the next write works.
        let grow = try Tool.run("/bin/mount", ["-o", "remount,size=8m", data])
        XCTAssertEqual(grow.status, 0, grow.stderr)
        try hb.ok("add", "more", "--hostname", "more.example", "--note", note)
        try hb.ok("remove", "more", "--yes")
        XCTAssertEqual(try hb.sql("SELECT count(*) FROM hosts WHERE name = 'first'"), "1")
        try hb.ok("doctor")
        XCTAssertEqual(try hb.sql("PRAGMA integrity_check"), "ok")
    }
}
