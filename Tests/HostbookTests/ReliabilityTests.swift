// Reliability of the real binary on real files: concurrent writers and SIGKILL in the
// middle of writes. No secret byte ever in the data folder is checked in-process:
// HostbookLogicTests/NoSecretInTheDataFolderTests.
import Foundation
import XCTest

final class ReliabilityTests: XCTestCase {
    var hb: HostbookFixture!

    // XCTest keeps every test case object until the run ends: drop the fixture now so its
    // temporary folder is removed now.
    override func tearDown() { hb = nil }

    override func setUpWithError() throws { hb = try HostbookFixture() }

    /// Two processes adding 500 hosts each at the same time, on a database neither has
    /// created yet: 1,000 hosts, and no "database is locked".
    func testTwoConcurrentWritersLoseNothing() throws {
        let loop = """
            i=1
            while [ $i -le 500 ]; do
              "$HB" add "w$W-$i" --hostname "h$i.example" --tag "writer$W" >/dev/null || { echo "add w$W-$i failed" >&2; exit 1; }
              i=$((i + 1))
            done
            """
        let env = hb.environment
        let a = try Shell.start(loop, environment: env.merging(["W": "1"]) { $1 }, dir: hb.dir, tag: "w1", account: hb.account)
        let b = try Shell.start(loop, environment: env.merging(["W": "2"]) { $1 }, dir: hb.dir, tag: "w2", account: hb.account)
        a.waitUntilExit()
        b.waitUntilExit()
        for (p, tag) in [(a, "w1"), (b, "w2")] {
            let (_, err) = Shell.output(hb.dir, tag)
            XCTAssertEqual(p.terminationStatus, 0, err)
            XCTAssertFalse(err.contains("locked"), err)
            XCTAssertEqual(err, "")
        }
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM hosts"), "1000")
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM host_tags WHERE tag = 'writer1'"), "500")
        XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM host_tags WHERE tag = 'writer2'"), "500")
        XCTAssertEqual((try hb.json("list") as? [Any])?.count, 1000)
    }

    /// Two processes finding the same old database at once: one migrates (after a backup),
    /// the other waits and finds it done; both writes land and every old row is kept.
    func testTwoProcessesMigratingAtOnce() throws {
        for round in 0..<3 {
            try? FileManager.default.removeItem(atPath: hb.dir.file("data"))
            try FileManager.default.createDirectory(atPath: hb.dir.file("data"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: PackageRootPath.path + "/testdata/hoststore/hostbook-v1.db", toPath: hb.db)
            let a = try Shell.start("exec \"$HB\" add one --hostname one.example", environment: hb.environment, dir: hb.dir, tag: "m1", account: hb.account)
            let b = try Shell.start("exec \"$HB\" snippets add two --command uptime", environment: hb.environment, dir: hb.dir, tag: "m2", account: hb.account)
            a.waitUntilExit()
            b.waitUntilExit()
            XCTAssertEqual(a.terminationStatus, 0, Shell.output(hb.dir, "m1").1)
            XCTAssertEqual(b.terminationStatus, 0, Shell.output(hb.dir, "m2").1)
            XCTAssertEqual(try Shell.sql(hb.db, "PRAGMA user_version"), String(try CurrentSchemaVersion.read()), "round \(round)")
            XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM hosts"), "4")
            XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM snippets"), "2")
            XCTAssertEqual(try Shell.sql(hb.db, "PRAGMA integrity_check"), "ok")
            XCTAssertTrue(hb.files().contains("hostbook.db.v1.bak"), "\(hb.files())")
        }
    }

    /// A loop of `add` (each one transaction: a row and 8 tags) killed with SIGKILL at
    /// several moments: the database always opens, passes integrity_check, and holds every
    /// host whole or not at all.
    func testSIGKILLDuringAddsLeavesWholeHostsOnly() throws {
        let loop = """
            i=$START
            while :; do
              "$HB" add "h$i" --hostname "h$i.example" --tag a --tag b --tag c --tag d --tag e --tag f --tag g --tag h >/dev/null &
              echo $! > "$PIDFILE"
              wait $!
              i=$((i + 1))
            done
            """
        var start = 0
        // Each round kills during its n-th add (n ≥ 2: the database exists), at a moment seen
        // rather than timed: as the add starts, once it has the database open, or once its
        // write has reached the WAL.
        for (round, n) in [2, 4, 2, 6, 3, 5].enumerated() {
            let pidFile = hb.dir.file("child.pid")
            try? FileManager.default.removeItem(atPath: pidFile)
            let p = try Shell.start(loop, environment: hb.environment.merging(["START": String(start), "PIDFILE": pidFile]) { $1 },
                                    dir: hb.dir, tag: "kill\(round)", account: hb.account)
            func current() -> Int32 {
                Int32((try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
            }
            var seen: [Int32] = []
            var polls = 0
            while seen.count < n, p.isRunning, polls < 200_000 {
                let c = current()
                if c > 0, c != seen.last { seen.append(c) } else { usleep(100) }
                polls += 1
            }
            let child = seen.last ?? 0
            let name = URL(fileURLWithPath: hb.db).lastPathComponent
            let wal = hb.db + "-wal"
            let walBefore = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
            let moment: () -> Bool = switch round % 3 {
            case 0: { true }
            case 1: { ProcFS.openFiles(of: child).contains { $0.hasSuffix("/" + name) } }
            default: { ((try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0) != walBefore }
            }
            polls = 0
            while !moment(), ProcFS.isAlive(child), polls < 100_000 { polls += 1; usleep(50) }
            kill(p.processIdentifier, SIGKILL)
            if child > 0 { kill(child, SIGKILL) }
            p.waitUntilExit()
            // The add (the shell's child, not ours) is gone before the database is read.
            polls = 0
            while child > 0, ProcFS.isAlive(child), polls < 10_000 { polls += 1; usleep(1_000) }

            XCTAssertEqual(try Shell.sql(hb.db, "PRAGMA integrity_check"), "ok", "round \(round)")
            let hosts = Int(try Shell.sql(hb.db, "SELECT count(*) FROM hosts")) ?? -1
            XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM host_tags"), String(hosts * 8), "round \(round): a host without all its tags")
            XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM hosts h WHERE (SELECT count(*) FROM host_tags t WHERE t.host_id = h.id) != 8"), "0")
            // The next round starts after the last host that made it.
            XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM hosts WHERE name = 'h\(hosts - 1)'"), hosts > 0 ? "1" : "0")
            start = hosts
            // And hostbook itself reads and writes it afterwards.
            try hb.ok("show", "h0")
        }
        XCTAssertGreaterThan(start, 5, "the loop made progress")
    }

    /// The largest single write hostbook makes on its own: migrating a big version-1
    /// database (backup copy, then new indexes over every row, in one transaction), killed
    /// with SIGKILL part way. Each time the database is whole at version 1 or 2 with every row.
    func testSIGKILLDuringAMigrationLeavesAllOrNothing() throws {
        let v1 = PackageRootPath.path + "/testdata/hoststore/hostbook-v1.db"
        let big = hb.dir.file("big-v1.db")
        try FileManager.default.copyItem(atPath: v1, toPath: big)
        try Shell.run("""
            sqlite3 "$DBFILE" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150000)
              INSERT INTO hosts(uuid, name, hostname, port, auth, source, source_id, created_at, updated_at)
              SELECT 'u-' || i, 'bulk' || i, 'b' || i || '.example', 22, 'agent', 'tailscale', 'node' || i, 'now', 'now' FROM n;
              INSERT INTO host_tags(host_id, tag) SELECT id, 'tag' || (id % 50) FROM hosts WHERE name LIKE 'bulk%';"
            """, environment: ["DBFILE": big])
        let rows = try Shell.sql(big, "SELECT (SELECT count(*) FROM hosts) || '/' || (SELECT count(*) FROM host_tags)")
        XCTAssertEqual(rows, "150003/150004")

        // Killed at moments seen, not timed: once the migration has written a given part of
        // the database's size beside it (its backup copy, then the new indexes in the WAL).
        let size = (try FileManager.default.attributesOfItem(atPath: big)[.size] as? Int) ?? 0
        let name = URL(fileURLWithPath: hb.db).lastPathComponent
        func writtenBeside() -> Int {
            hb.files().filter { $0 != name && !$0.hasSuffix("-shm") }.reduce(0) { total, f in
                total + ((try? FileManager.default.attributesOfItem(atPath: self.hb.dir.file("data/" + f))[.size] as? Int) ?? 0)
            }
        }

        var outcomes = Set<String>()
        for fraction in [0.3, 0.5, 0.65, 0.8, 0.9, 1.1] {
            try? FileManager.default.removeItem(atPath: hb.dir.file("data"))
            try FileManager.default.createDirectory(atPath: hb.dir.file("data"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: big, toPath: hb.db)
            let p = try Shell.start("exec \"$HB\" add z --hostname z.example", environment: hb.environment, dir: hb.dir, tag: "migrate", account: hb.account)
            var polls = 0
            while p.isRunning, Double(writtenBeside()) < Double(size) * fraction, polls < 200_000 { polls += 1; usleep(200) }
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()

            XCTAssertEqual(try Shell.sql(hb.db, "PRAGMA integrity_check"), "ok")
            let version = try Shell.sql(hb.db, "PRAGMA user_version")
            let indexes = try Shell.sql(hb.db, "SELECT count(*) FROM sqlite_master WHERE name IN ('hosts_source', 'host_tags_tag', 'hosts_key', 'hosts_jump')")
            let counts = try Shell.sql(hb.db, "SELECT (SELECT count(*) FROM hosts WHERE name != 'z') || '/' || (SELECT count(*) FROM host_tags)")
            XCTAssertEqual(counts, "150003/150004", "every row is kept (fraction \(fraction))")
            switch version {
            case "1": XCTAssertEqual(indexes, "0", "version 1 has none of version 2's indexes")
            case let v where (2...(try CurrentSchemaVersion.read())).contains(Int(v) ?? 0):
                XCTAssertEqual(indexes, "4", "versions 2 and later have all of them")
            default: XCTFail("user_version \(version)")
            }
            outcomes.insert(version)
            // A backup is complete or absent: a .bak file is always the whole version-1 database.
            for f in hb.files() where f.hasSuffix(".bak") {
                let bak = hb.dir.file("data/" + f)
                XCTAssertEqual(try Shell.sql(bak, "PRAGMA integrity_check"), "ok", f)
                XCTAssertEqual(try Shell.sql(bak, "PRAGMA user_version"), "1", f)
                XCTAssertEqual(try Shell.sql(bak, "SELECT count(*) FROM hosts"), "150003", f)
            }
            // hostbook finishes the job afterwards.
            try hb.ok("add", "after", "--hostname", "after.example")
            XCTAssertEqual(try Shell.sql(hb.db, "PRAGMA user_version"), String(try CurrentSchemaVersion.read()))
        }
        XCTAssertTrue(outcomes.contains("1"), "at least one kill landed before the migration committed (\(outcomes))")
    }

    /// A bulk import (`import-tailscale`, one transaction of 30,000 hosts) killed with
    /// SIGKILL once its write has reached the WAL file: all 30,000 or none, never part.
    func testSIGKILLDuringABulkImportLeavesAllOrNothing() throws {
        var devices: [String] = []
        for i in 0..<30_000 {
            devices.append("""
                {"addresses":["100.64.\(i / 250).\(i % 250 + 1)"],"id":"\(1000 + i)","nodeId":"nBulk\(i)CNTRL","user":"a@example.com",\
                "name":"dev\(i).tail4f21c8.ts.net","hostname":"dev\(i)","os":"linux","authorized":true,"isExternal":false,\
                "blocksIncomingConnections":false}
                """)
        }
        let file = hb.dir.file("devices.json")
        try Data(("{\"devices\":[" + devices.joined(separator: ",") + "]}").utf8).write(to: URL(fileURLWithPath: file))
        try hb.ok("add", "seed", "--hostname", "seed.example")
        let seeded = hb.dir.file("seeded.db")
        try Shell.run("sqlite3 \"$DBFILE\" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null; cp \"$DBFILE\" \"$OUT\"", environment: ["DBFILE": hb.db, "OUT": seeded])

        var killedMidWrite = 0
        for round in 0..<4 {
            for f in hb.files() { try FileManager.default.removeItem(atPath: hb.dir.file("data/" + f)) }
            try FileManager.default.copyItem(atPath: seeded, toPath: hb.db)
            let p = try Shell.start("exec \"$HB\" import-tailscale \"$FILE\" --all --no-host-keys >/dev/null",
                                    environment: hb.environment.merging(["FILE": file]) { $1 }, dir: hb.dir, tag: "import", account: hb.account)
            // Wait until the transaction's pages are spilling into the WAL (threshold varied
            // per round), then kill.
            let threshold = [64, 512, 2048, 4096][round] * 1024
            let deadline = Date().addingTimeInterval(60)
            while p.isRunning, Date() < deadline {
                let size = (try? FileManager.default.attributesOfItem(atPath: hb.db + "-wal")[.size] as? Int) ?? 0
                if size > threshold { break }
                usleep(1000)
            }
            if p.isRunning {
                kill(p.processIdentifier, SIGKILL)
                killedMidWrite += 1
            }
            p.waitUntilExit()

            XCTAssertEqual(try Shell.sql(hb.db, "PRAGMA integrity_check"), "ok", "round \(round)")
            let imported = try Shell.sql(hb.db, "SELECT count(*) FROM hosts WHERE source = 'tailscale'")
            XCTAssertTrue(imported == "0" || imported == "30000", "round \(round): \(imported) of 30000 hosts")
            XCTAssertEqual(try Shell.sql(hb.db, "SELECT count(*) FROM hosts WHERE name = 'seed'"), "1")
            try hb.ok("show", "seed")
        }
        XCTAssertGreaterThan(killedMidWrite, 0, "at least one import was killed while writing")
    }
}
