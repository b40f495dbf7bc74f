// `hostbook show --json`, `list` (table, filters, empty) and a corrupt database's error,
// in-process (InProcessCommand runs Hostbook.main on a real SQLite file). Moved from
// HostbookTests/HostCommandTests, which keeps add/show text, remove's prompt, file modes
// and refusals on the binary.
import Foundation
@testable import hostbook
import TestSupport
import XCTest
import HostStore

final class HostCommandOutputTests: XCTestCase {
    var hb: InProcessCommand!

    // XCTest keeps every test case object until the run ends: drop the fixture now so its
    // temporary folder is removed now.
    override func tearDown() { hb = nil }

    override func setUpWithError() throws { hb = try InProcessCommand() }

    func testShowJSONHasTheContractFieldsInOrder() throws {
        try hb.ok("add", "bastion", "--hostname", "bastion.example.com")
        try hb.ok("add", "web", "--hostname", "::1", "--jump", "bastion", "--tag", "x")
        let r = try hb.ok("show", "web", "--json")
        let keys = r.stdout.split(separator: "\n").compactMap { line -> String? in
            let t = line.drop { $0 == " " }
            guard t.hasPrefix("\""), let end = t.dropFirst().firstIndex(of: "\"") else { return nil }
            return String(t[t.index(after: t.startIndex)..<end])
        }
        XCTAssertEqual(keys, ["name", "hostname", "port", "user", "tags", "x", "auth", "key", "source", "jump", "note", "source_id", "tailscale", "created_at", "updated_at", "aliases"])
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any])
        XCTAssertEqual(o["name"] as? String, "web")
        XCTAssertEqual(o["hostname"] as? String, "::1")
        XCTAssertEqual(o["port"] as? Int, 22)
        XCTAssertTrue(o["user"] is NSNull)
        XCTAssertEqual(o["tags"] as? [String], ["x"])
        XCTAssertEqual(o["auth"] as? String, "agent")
        XCTAssertTrue(o["key"] is NSNull)
        XCTAssertEqual(o["source"] as? String, "manual")
        XCTAssertEqual(o["jump"] as? String, "bastion")
    }

    func testListOnAMissingDatabaseIsEmptyAndCreatesNothing() throws {
        let r = try hb.run("list")
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "No hosts.\n")
        XCTAssertEqual(try hb.run("list", "--json").stdout, "[]\n")
        try hb.fails(["show", "web"], status: 4, stderr: "hostbook: no host named 'web'\nSee 'hostbook list' for the hosts there are.\n")
        try hb.fails(["remove", "web", "--yes"], status: 4, stderr: "hostbook: no host named 'web'\nSee 'hostbook list' for the hosts there are.\n")
        try hb.fails(["edit", "web", "--port", "2"], status: 4, stderr: "hostbook: no host named 'web'\nSee 'hostbook list' for the hosts there are.\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: hb.dir.file("data")))
    }

    func testListTableAndFilters() throws {
        try hb.ok("add", "b-web", "--hostname", "web.example.com", "--user", "deploy", "--tag", "prod", "--tag", "web")
        try hb.ok("add", "a-db", "--hostname", "192.168.1.20", "--port", "5022", "--tag", "prod")
        try hb.ok("add", "c-lab", "--hostname", "lab.local", "--jump", "a-db")
        XCTAssertEqual(try hb.ok("list").stdout, """
            NAME   HOSTNAME         PORT  USER    AUTH   JUMP  TAGS      SOURCE
            a-db   192.168.1.20     5022  -       agent  -     prod      manual
            b-web  web.example.com  22    deploy  agent  -     prod,web  manual
            c-lab  lab.local        22    -       agent  a-db  -         manual

            """)
        let prod = try XCTUnwrap(try hb.json("list", "--tag", "PROD") as? [[String: Any]])
        XCTAssertEqual(prod.map { $0["name"] as? String }, ["a-db", "b-web"])
        let both = try XCTUnwrap(try hb.json("list", "--tag", "prod", "--tag", "web") as? [[String: Any]])
        XCTAssertEqual(both.map { $0["name"] as? String }, ["b-web"])
        XCTAssertEqual((try hb.json("list", "--source", "manual") as? [Any])?.count, 3)
        XCTAssertEqual((try hb.json("list", "--source", "tailscale") as? [Any])?.count, 0)
        let r = try hb.run("list", "--tag", "nothing")
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "No hosts.\n")
    }

    func testCorruptDatabaseIsAClearError() throws {
        try FileManager.default.createDirectory(atPath: hb.dir.file("data"), withIntermediateDirectories: true)
        try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: hb.db))
        try hb.fails(["list"], status: 1, stderr: "hostbook: '\(hb.db)' is not a usable hostbook database: file is not a database\nRun 'hostbook doctor', or restore a backup (\(hb.db).vN.bak).\n")
    }
}
