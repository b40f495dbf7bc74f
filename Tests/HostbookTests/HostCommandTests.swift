// End to end: hostbook add / edit / remove / list / show, run as the real binary.
import Foundation
import XCTest

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

    func testEditChangesOnlyWhatIsGiven() throws {
        try hb.ok("add", "jump", "--hostname", "j.example")
        try hb.ok("add", "web", "--hostname", "w.example", "--user", "root", "--tag", "a", "--tag", "b", "--note", "old")
        let r = try hb.ok("edit", "web", "--rename", "web2", "--port", "2200", "--tag", "c", "--untag", "A", "--jump", "jump", "--note", "")
        XCTAssertEqual(r.stdout, "Updated host 'web2' (root@w.example:2200, auth agent).\n")
        let o = try XCTUnwrap(try hb.json("show", "web2") as? [String: Any])
        XCTAssertEqual(o["tags"] as? [String], ["b", "c"])
        XCTAssertEqual(o["user"] as? String, "root")
        XCTAssertEqual(o["hostname"] as? String, "w.example")
        XCTAssertEqual(o["jump"] as? String, "jump")
        XCTAssertTrue(o["note"] is NSNull, "an empty --note clears it")
        try hb.ok("edit", "web2", "--no-jump", "--user", "ops", "--hostname", "10.1.1.1")
        let p = try XCTUnwrap(try hb.json("show", "web2") as? [String: Any])
        XCTAssertTrue(p["jump"] is NSNull)
        XCTAssertEqual(p["user"] as? String, "ops")
        try hb.ok("edit", "web2", "--no-user")
        XCTAssertTrue((try hb.json("show", "web2") as? [String: Any])?["user"] is NSNull, "--no-user clears the user")
        // --untag of a tag the host lacks is refused, and nothing of that edit is written.
        try hb.fails(["edit", "web2", "--untag", "b", "--untag", "nope", "--port", "2"], status: 5,
                     stderr: "hostbook: host 'web2' has no tag 'nope'\nIts tags: b, c.\n")
        let q = try XCTUnwrap(try hb.json("show", "web2") as? [String: Any])
        XCTAssertEqual(q["tags"] as? [String], ["b", "c"])
        XCTAssertEqual(q["port"] as? Int, 2200)
        // ssh accepts `_` in host names; hostbook does too.
        XCTAssertEqual(try hb.ok("add", "build_01", "--hostname", "build_01.corp.example").stdout,
                       "Added host 'build_01' (build_01.corp.example, auth agent).\n")
        // The old name is gone; the new one is the nearest saved name (a suggestion only).
        try hb.fails(["show", "web"], status: 4, stderr: "hostbook: no host named 'web'\nDid you mean 'web2'? See 'hostbook list' for the hosts there are.\n")
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

    /// Every validation rule, with its exact message and exit code.
    func testValidation() throws {
        try hb.ok("add", "bastion", "--hostname", "b.example")
        try hb.ok("add", "web", "--hostname", "w.example", "--jump", "bastion")
        let hostHint = "See 'hostbook list' for the hosts there are.\n"
        let cases: [([String], Int32, String)] = [
            (["add", "bad name", "--hostname", "h"], 5, "hostbook: invalid host name 'bad name': use 1 to 64 letters, digits, '.', '_' or '-'\n"),
            (["add", String(repeating: "n", count: 65), "--hostname", "h"], 5,
             "hostbook: invalid host name '\(String(repeating: "n", count: 65))': use 1 to 64 letters, digits, '.', '_' or '-'\n"),
            (["add", "WEB", "--hostname", "h"], 5, "hostbook: a host named 'web' already exists\nChoose another name, or change it with 'hostbook edit web'.\n"),
            (["add", "x", "--hostname", "-bad.host"], 5, "hostbook: invalid hostname '-bad.host': use a DNS name, an IPv4 address or an IPv6 address\n"),
            (["add", "x", "--hostname", "bad host"], 5, "hostbook: invalid hostname 'bad host': use a DNS name, an IPv4 address or an IPv6 address\n"),
            (["add", "x", "--hostname", "300.1.2.3"], 5, "hostbook: invalid hostname '300.1.2.3': use a DNS name, an IPv4 address or an IPv6 address\n"),
            (["add", "x", "--hostname", "[::1]"], 5, "hostbook: invalid hostname '[::1]': write an IPv6 address without brackets\n"),
            (["add", "x", "--hostname", "h", "--port", "0"], 2, "hostbook: --port must be a whole number from 1 to 65535, not '0'\n"),
            (["add", "x", "--hostname", "h", "--port", "65536"], 2, "hostbook: --port must be a whole number from 1 to 65535, not '65536'\n"),
            (["add", "x", "--hostname", "h", "--port", "ssh"], 2, "hostbook: --port must be a whole number from 1 to 65535, not 'ssh'\n"),
            (["add", "x", "--hostname", "h", "--user", "-oProxyCommand=x"], 5,
             "hostbook: invalid user '-oProxyCommand=x': use 1 to 64 letters, digits, '.', '_', '-' or '@', not starting with '-'\n"),
            (["add", "x", "--hostname", "h", "--tag", "a,b"], 5, "hostbook: invalid tag 'a,b': use 1 to 64 letters, digits, '.', '_', '-' or ':'\n"),
            (["add", "x", "--hostname", "h", "--jump", "nowhere"], 5, "hostbook: jump host 'nowhere' does not exist\nAdd it first with 'hostbook add nowhere --hostname H'.\n"),
            (["add", "x", "--hostname", "h", "--jump", "x"], 5, "hostbook: host 'x' cannot be its own jump host\n"),
            (["add", "x", "--hostname", "h", "--key", "laptop"], 5,
             "hostbook: key 'laptop' does not exist\nImport it first with 'hostbook keys import PATH --name laptop'; 'hostbook keys list' shows the keys there are.\n"),
            (["add", "x", "--hostname", "h", "--note", "a\nb"], 5, "hostbook: the note contains a line break at character 2\nWrite the note on one line without control characters.\n"),
            (["add", "x"], 2, "hostbook: missing --hostname for 'hostbook add'\nRun 'hostbook add --help' for usage.\n"),
            (["add", "--hostname", "h"], 2, "hostbook: missing NAME for 'hostbook add'\nRun 'hostbook add --help' for usage.\n"),
            (["edit", "bastion", "--jump", "web"], 5, "hostbook: jump host 'web' would make a loop: bastion -> web -> bastion\n"),
            (["edit", "web", "--jump", "web"], 5, "hostbook: host 'web' cannot be its own jump host\n"),
            (["edit", "web", "--rename", "Bastion"], 5, "hostbook: a host named 'bastion' already exists\nChoose another name.\n"),
            (["edit", "web", "--port", "-5"], 2, "hostbook: --port must be a whole number from 1 to 65535, not '-5'\n"),
            (["edit", "web", "--key", "k", "--no-key"], 2, "hostbook: --key and --no-key cannot be used together\nRun 'hostbook edit --help' for usage.\n"),
            (["edit", "web", "--jump", "k", "--no-jump"], 2, "hostbook: --jump and --no-jump cannot be used together\nRun 'hostbook edit --help' for usage.\n"),
            (["edit", "web", "--password-stdin", "--no-password"], 2,
             "hostbook: --password-stdin and --no-password cannot be used together\nRun 'hostbook edit --help' for usage.\n"),
            (["edit", "web", "--tag", "a", "--untag", "A"], 2, "hostbook: --tag a and --untag a cannot be used together\nRun 'hostbook edit --help' for usage.\n"),
            (["edit", "web"], 2, "hostbook: nothing to change for host 'web'\nRun 'hostbook edit --help' for the options.\n"),
            (["edit", "web", "--untag", "x"], 5, "hostbook: host 'web' has no tag 'x'\nIt has no tags.\n"),
            (["edit", "web", "--user", "u", "--no-user"], 2, "hostbook: --user and --no-user cannot be used together\nRun 'hostbook edit --help' for usage.\n"),
            (["edit", "ghost", "--port", "22"], 4, "hostbook: no host named 'ghost'\n" + hostHint),
            (["show", "ghost"], 4, "hostbook: no host named 'ghost'\n" + hostHint),
            (["remove", "ghost"], 4, "hostbook: no host named 'ghost'\n" + hostHint),
            (["add", "x", "--hostname", "h", "--password-stdin"], 5, "hostbook: the password is empty\nGive the password on stdin, e.g. from a password manager.\n"),
        ]
        for (args, status, stderr) in cases {
            try hb.fails(args, stdin: "", status: status, stderr: stderr)
        }
        // Nothing above was written.
        let names = (try hb.json("list") as? [[String: Any]])?.compactMap { $0["name"] as? String }
        XCTAssertEqual(names, ["bastion", "web"])
    }

    func testDatabaseFilesArePrivate() throws {
        try hb.ok("add", "web", "--hostname", "w.example")
        func mode(_ p: String) throws -> Int { (try FileManager.default.attributesOfItem(atPath: p)[.posixPermissions] as? Int) ?? -1 }
        XCTAssertEqual(try mode(hb.dir.file("data")), 0o700)
        XCTAssertEqual(try mode(hb.db), 0o600)
        for f in hb.files() { XCTAssertEqual(try mode(hb.dir.file("data/" + f)), 0o600, f) }
    }

    func testDatabasePathResolution() throws {
        let tmp = try TemporaryDirectory()
        // --db wins over $HOSTBOOK_DB.
        try hb.ok("add", "a", "--hostname", "a.example", "--db", tmp.file("flag.db"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp.file("flag.db")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: hb.db))
        // $XDG_DATA_HOME, then ~/.local/share.
        var r = try HostbookProcess.run(["add", "b", "--hostname", "b.example"], environment: ["XDG_DATA_HOME": tmp.file("xdg")], removing: ["HOSTBOOK_DB"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp.file("xdg/hostbook/hostbook.db")))
        r = try HostbookProcess.run(["add", "c", "--hostname", "c.example"], environment: ["HOME": tmp.file("home")], removing: ["HOSTBOOK_DB", "XDG_DATA_HOME"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp.file("home/.local/share/hostbook/hostbook.db")))
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

    func testCorruptDatabaseIsAClearError() throws {
        try FileManager.default.createDirectory(atPath: hb.dir.file("data"), withIntermediateDirectories: true)
        try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: hb.db))
        try hb.fails(["list"], status: 1, stderr: "hostbook: '\(hb.db)' is not a usable hostbook database: file is not a database\nRun 'hostbook doctor', or restore a backup (\(hb.db).vN.bak).\n")
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
