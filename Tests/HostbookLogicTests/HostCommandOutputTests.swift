// `hostbook add / show / list / remove` in-process (InProcessCommand runs Hostbook.main on a
// real SQLite file): add and show text, `show --json`, `list` (table, filters, empty),
// remove without a terminal, one refusal of each kind, the database files' modes, a
// corrupt or newer database's error. Moved from HostbookTests/HostCommandTests.
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

    func testAddThenShowText() throws {
        let r = try hb.ok("add", "web", "--hostname", "10.0.0.1", "--port", "2222", "--user", "root", "--tag", "prod", "--tag", "eu", "--note", "rack 4")
        XCTAssertEqual(r.stdout, "Added host 'web' (root@10.0.0.1:2222, auth agent).\n")
        XCTAssertEqual(r.stderr, "")
        let show = try hb.ok("show", "WEB").stdout
        let lines = show.split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(lines.prefix(10)), [
            "name:     web",
            "hostname: 10.0.0.1",
            "port:     2222",
            "user:     root",
            "auth:     agent",
            "key:      -",
            "jump:     -",
            "tags:     eu, prod",
            "note:     rack 4",
            "source:   manual",
        ])
        XCTAssertTrue(lines[10].hasPrefix("created:  20"), lines[10])
        XCTAssertTrue(lines[11].hasPrefix("updated:  20"), lines[11])
    }

    func testRemove() throws {
        try hb.ok("add", "web", "--hostname", "w.example")
        try hb.fails(["remove", "web"], status: 3,
                     stderr: "hostbook: confirmation is needed but there is no terminal\nUse --yes instead.\n")
        XCTAssertEqual(try hb.ok("remove", "WEB", "--yes").stdout, "Removed host 'web'.\n")
        XCTAssertEqual(try hb.run("list", "--json").stdout, "[]\n")
        try hb.ok("add", "j", "--hostname", "j.example")
        try hb.ok("add", "w", "--hostname", "w.example", "--jump", "j")
        try hb.fails(["remove", "j", "--yes"], status: 5,
                     stderr: "hostbook: host 'j' is the jump host of 'w'\nChange that first with 'hostbook edit w --no-jump'.\n")
        XCTAssertEqual(try hb.ok("remove", "w", "--yes", "--json").stdout, "{\n  \"name\": \"w\",\n  \"removed\": true\n}\n")
    }

    /// One refusal of each kind (usage, validation, an empty password on stdin) with its
    /// exit status and stderr, then an edit. Every rule: HostCommandLogicTests.
    func testRefusalsOnTheCommandLine() throws {
        try hb.ok("add", "web", "--hostname", "w.example")
        try hb.fails(["add", "x", "--hostname", "h", "--port", "0"], status: 2, stderr: "hostbook: --port must be a whole number from 1 to 65535, not '0'\n")
        try hb.fails(["add", "bad name", "--hostname", "h"], status: 5, stderr: "hostbook: invalid host name 'bad name': use 1 to 64 letters, digits, '.', '_' or '-'\n")
        try hb.fails(["add", "x", "--hostname", "h", "--password-stdin"], stdin: "", status: 5,
                     stderr: "hostbook: the password is empty\nGive the password on stdin, e.g. from a password manager.\n")
        XCTAssertEqual(try hb.ok("edit", "web", "--port", "2200").stdout, "Updated host 'web' (w.example:2200, auth agent).\n")
        let names = (try hb.json("list") as? [[String: Any]])?.compactMap { $0["name"] as? String }
        XCTAssertEqual(names, ["web"])
    }

    func testDatabaseFilesArePrivate() throws {
        try hb.ok("add", "web", "--hostname", "w.example")
        func mode(_ p: String) throws -> Int { (try FileManager.default.attributesOfItem(atPath: p)[.posixPermissions] as? Int) ?? -1 }
        XCTAssertEqual(try mode(hb.dir.file("data")), 0o700)
        XCTAssertEqual(try mode(hb.db), 0o600)
        for f in hb.files() { XCTAssertEqual(try mode(hb.dir.file("data/" + f)), 0o600, f) }
    }

    func testNewerDatabaseIsRefusedUntouched() throws {
        try hb.ok("add", "a", "--hostname", "a.example")
        XCTAssertEqual(try Tool.run("/usr/bin/sqlite3", [hb.db, "PRAGMA journal_mode = DELETE; PRAGMA user_version = 99;"]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: hb.db))
        for args in [["list"], ["add", "b", "--hostname", "b.example"], ["show", "a"], ["snippets", "list"]] {
            try hb.fails(args, status: 1, stderr: "hostbook: database schema version 99 is newer than this hostbook supports (\(Schema.currentVersion)); upgrade hostbook\nThe database '\(hb.db)' was left untouched.\n")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: hb.db)), before)
    }
}
