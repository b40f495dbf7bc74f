// The known-hosts readers print the same bytes before and after the version-7 migration
// (the compact layout, KnownHostsSchema): `known-hosts list`, `list --wide`, `export`,
// `history`, `history --wide` and their `--json`, for the v4, v5 and v6 fixtures. What the
// version-6 program printed for each is in testdata/hoststore/readers/vN, written by
// make-v6-fixture.sh with that program; here the current program migrates a copy and must
// print exactly that, in-process (InProcessCommand runs Hostbook.main). Moved from
// HostbookTests/KnownHostsReadersAcrossVersionsTests.
import Foundation
@testable import hostbook
import HostStore
import TestSupport
import XCTest

final class KnownHostsReadersAcrossVersionsTests: XCTestCase {
    static let outputs: [(file: String, args: [String])] = [
        ("list.txt", ["known-hosts", "list"]),
        ("list-wide.txt", ["known-hosts", "list", "--wide"]),
        ("list.json", ["--json", "known-hosts", "list"]),
        ("export.txt", ["known-hosts", "export"]),
        ("history.txt", ["known-hosts", "history"]),
        ("history-wide.txt", ["known-hosts", "history", "--wide"]),
        ("history.json", ["--json", "known-hosts", "history"]),
    ]

    func testEveryReaderPrintsWhatVersion6PrintedAfterMigrating() throws {
        for version in [4, 5, 6] {
            let hb = try InProcessCommand()
            // The width the fixture's outputs were made at (make-v6-fixture.sh).
            hb.environment["COLUMNS"] = "200"
            try FileManager.default.createDirectory(atPath: hb.dir.file("data"), withIntermediateDirectories: true)
            let root = PackageRoot.path + "/testdata/hoststore"
            try FileManager.default.copyItem(atPath: root + "/hostbook-v\(version).db", toPath: hb.db)
            chmod(hb.dir.file("data"), 0o700)
            chmod(hb.db, 0o600)
            for (file, args) in Self.outputs {
                let expected = try String(contentsOfFile: root + "/readers/v\(version)/\(file)", encoding: .utf8)
                let r = try hb.run(args)
                XCTAssertEqual(r.status, 0, "v\(version) \(args): \(r.stderr)")
                XCTAssertEqual(r.stdout, expected, "v\(version) \(file)")
            }
            XCTAssertEqual(try hb.sql("PRAGMA user_version"), String(Schema.currentVersion), "v\(version)")
        }
    }
}
