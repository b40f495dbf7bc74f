// End to end: hostbook add / edit / remove / list / show, run as the real binary for their
// command line (output, JSON order, exit codes, prompts, files). The validation rules, edits
// and the database path are tested in-process: HostbookLogicTests/HostCommandLogicTests.
import Foundation
import XCTest
import HostStore

final class HostCommandTests: XCTestCase {
    var hb: HostbookFixture!

    // XCTest keeps every test case object until the run ends: drop the fixture now so its
    // temporary folder is removed now.
    override func tearDown() { hb = nil }

    override func setUpWithError() throws { hb = try HostbookFixture() }

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

    /// Every validation rule's message and exit code, and what an edit changes, are checked
    /// in-process (HostbookLogicTests/HostCommandLogicTests); here the binary's exit status and
    /// stderr for one refusal of each kind, and the password read from stdin.
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
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [hb.db, "PRAGMA journal_mode = DELETE; PRAGMA user_version = 99;"]
        sqlite.standardOutput = FileHandle.nullDevice
        try sqlite.run()
        sqlite.waitUntilExit()
        let before = try Data(contentsOf: URL(fileURLWithPath: hb.db))
        for args in [["list"], ["add", "b", "--hostname", "b.example"], ["show", "a"], ["snippets", "list"]] {
            try hb.fails(args, status: 1, stderr: "hostbook: database schema version 99 is newer than this hostbook supports (\(try CurrentSchemaVersion.read())); upgrade hostbook\nThe database '\(hb.db)' was left untouched.\n")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: hb.db)), before)
    }
}

/// `list --json` is rendered by a streaming writer (for speed); `show --json` by JSONValue.
/// Both must print the same text for every host, whatever bytes another writer (an
/// importer, sqlite3) left in the fields.
final class HostListJSONTests: XCTestCase {
    func testListJSONIsTheShowObjectsInAnArray() throws {
        let hb = try HostbookFixture()
        try hb.ok("add", "plain", "--hostname", "p.example", "--tag", "t1", "--tag", "t2", "--user", "me", "--port", "2")
        try hb.ok("add", "bare", "--hostname", "::1")
        try Shell.run("""
            sqlite3 "$DBFILE" "INSERT INTO hosts(uuid, name, hostname, port, user, auth, note, source, source_id, created_at, updated_at)
              VALUES ('u-odd', 'odd', 'o.example', 22, 'q\\"u', 'none',
                      'a\\"b\\\\c' || char(10) || char(133) || char(8232) || char(8233) || char(127) || char(1) || char(9) || char(13) || '€ ✓',
                      'tailscale', 'n' || char(159), 'x', 'y');
              INSERT INTO hosts(uuid, name, hostname, port, auth, note, source, created_at, updated_at)
              VALUES ('u-bad', 'bad', 'b.example', 22, 'agent', CAST(x'41ff42c2' AS TEXT), 'manual', 'x', 'y');
              INSERT INTO host_tags VALUES ((SELECT id FROM hosts WHERE name = 'odd'), 'T' || char(8232));"
            """, environment: ["DBFILE": hb.db])
        let list = try hb.ok("list", "--json").stdout
        var objects: [String] = []
        for name in ["bad", "bare", "odd", "plain"] {
            let show = try hb.ok("show", name, "--json").stdout
            objects.append(show.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))
        }
        XCTAssertEqual(list, "[\n" + objects.joined(separator: ",\n") + "\n]\n")
        XCTAssertTrue(list.contains(#""note": "a\"b\\c\n\u0085\u2028\u2029\u007f\u0001\t\r€ ✓""#), list)
        XCTAssertTrue(list.contains("\"note\": \"A\u{FFFD}B\u{FFFD}\""), list)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(list.utf8)))
    }
}
