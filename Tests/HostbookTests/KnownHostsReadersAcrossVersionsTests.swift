// The known-hosts readers print the same bytes before and after the version-7 migration
// (the compact layout, KnownHostsSchema): `known-hosts list`, `list --wide`, `export`,
// `history`, `history --wide` and their `--json`, for the v4, v5 and v6 fixtures. What the
// version-6 program printed for each is in testdata/hoststore/readers/vN, written by
// make-v6-fixture.sh with that program; here the current program migrates a copy and must
// print exactly that. The command line is the subject: the real binary runs.
import Foundation
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
            let hb = try HostbookFixture()
            // The width the fixture's outputs were made at (make-v6-fixture.sh).
            hb.environment["COLUMNS"] = "200"
            try FileManager.default.createDirectory(atPath: hb.dir.file("data"), withIntermediateDirectories: true)
            let root = PackageRootPath.path + "/testdata/hoststore"
            try FileManager.default.copyItem(atPath: root + "/hostbook-v\(version).db", toPath: hb.db)
            if let account = hb.account {
                XCTAssertEqual(chown(hb.dir.file("data"), account.uid, account.gid), 0)
                XCTAssertEqual(chown(hb.db, account.uid, account.gid), 0)
            }
            chmod(hb.dir.file("data"), 0o700)
            chmod(hb.db, 0o600)
            for (file, args) in Self.outputs {
                let expected = try String(contentsOfFile: root + "/readers/v\(version)/\(file)", encoding: .utf8)
                let r = try hb.run(args)
                XCTAssertEqual(r.status, 0, "v\(version) \(args): \(r.stderr)")
                XCTAssertEqual(r.stdout, expected, "v\(version) \(file)")
            }
            XCTAssertEqual(try Shell.sql(hb.db, "PRAGMA user_version"), String(try CurrentSchemaVersion.read()), "v\(version)")
        }
    }
}
