// The database tells the truth (issue 10), as a second user account made by the test sees
// it (the real binary run as that user): a database that cannot be read is an error for
// every command, never an empty store; a readable database in a folder the user may not
// write can be read, and so can the user's own file in a root-owned folder. A file that is
// not SQLite, a folder at its path and a symbolic link run in-process:
// HostbookLogicTests/DatabaseTruthLogicTests; read-only commands creating nothing, and a
// database others can write or another user owns, refused with what to fix:
// HostbookLogicTests/DatabaseTrustLogicTests.
import Foundation
import TestSupport
import XCTest

final class DatabaseTruthTests: XCTestCase {
    /// A file the user may not read: exit 1 and one line naming the file and the reason,
    /// from every command, reading or writing.
    func testADatabaseTheUserCannotReadIsAnErrorEverywhere() throws {
        let user = try SecondUser()
        // The subject is root's database seen by another user: hostbook runs as root here.
        let hb = try HostbookFixture(asRoot: true)
        try hb.ok("add", "web", "--hostname", "web.example")
        chmod(hb.dir.path, 0o755)
        chmod(hb.dir.file("data"), 0o755)
        let expected = "hostbook: cannot read the database '\(hb.db)': Permission denied\n"
            + "Run hostbook as the user who owns it, fix its permissions (ls -l '\(hb.db)'), or choose another database with --db.\n"
        for (args, _) in ReadOnlyCommands.all + [(["add", "x", "--hostname", "x"], 1)] {
            let r = try user.hostbook(["--db", hb.db] + args)
            XCTAssertEqual(r.status, 1, "\(args): \(r.stdout)\(r.stderr)")
            if args.first == "doctor" {
                XCTAssertTrue(r.stdout.contains("cannot read the database '\(hb.db)': Permission denied"), "\(args): \(r.stdout)")
                continue
            }
            if args.first == "add" { continue }
            XCTAssertEqual(r.stdout, "", "\(args)")
            XCTAssertEqual(r.stderr, expected, "\(args)")
        }
        // A folder on the way that the user may not enter is the same: not "no database".
        chmod(hb.dir.file("data"), 0o700)
        let r = try user.hostbook(["--db", hb.db, "list", "--json"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "hostbook: cannot read the database '\(hb.db)': Permission denied\n"
            + "Check the permissions of the folders on the way to it, or choose another database with --db.\n")
        let add = try user.hostbook(["--db", hb.db, "add", "x", "--hostname", "x"])
        XCTAssertEqual(add.status, 1)
        XCTAssertEqual(add.stderr, "hostbook: cannot read the database '\(hb.db)': Permission denied\n"
            + "Check the permissions of the folders on the way to it, or choose another database with --db.\n")
        let d = try user.hostbook(["--db", hb.db, "doctor"])
        XCTAssertEqual(d.status, 1)
        XCTAssertFalse(d.stdout.contains("No problems found"), d.stdout)
    }

    /// The user's own database, in the user's own folder, which the user made read-only:
    /// WAL would need a -shm file there, so hostbook reads the file as it is.
    func testADatabaseInAFolderTheUserMayNotWriteCanBeRead() throws {
        let user = try SecondUser()
        let dir = try TemporaryDirectory()
        chmod(dir.path, 0o755)
        let folder = dir.file("ro")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        chmod(folder, 0o700)
        user.chown(folder)
        let db = folder + "/hostbook.db"
        XCTAssertEqual(try user.hostbook(["--db", db, "add", "web", "--hostname", "web.example", "--tag", "prod"]).status, 0)
        XCTAssertEqual(try user.hostbook(["--db", db, "snippets", "add", "up", "--command", "uptime"]).status, 0)
        chmod(folder, 0o500)
        defer { chmod(folder, 0o700) }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["hostbook.db"], "SQLite removed -wal and -shm on close")

        let list = try user.hostbook(["--db", db, "list", "--json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        let hosts = try JSONSerialization.jsonObject(with: list.stdoutBytes) as? [[String: Any]]
        XCTAssertEqual(hosts?.map { $0["name"] as? String }, ["web"])
        let show = try user.hostbook(["--db", db, "show", "web"])
        XCTAssertEqual(show.status, 0, show.stderr)
        XCTAssertTrue(show.stdout.contains("web.example"), show.stdout)
        XCTAssertEqual(try user.hostbook(["--db", db, "snippets", "show", "up"]).status, 0)
        XCTAssertEqual(try user.hostbook(["--db", db, "keys", "list"]).status, 0)
        XCTAssertEqual(try user.hostbook(["--db", db, "known-hosts", "export"]).status, 0)
        let doctor = try user.hostbook(["--db", db, "doctor"])
        XCTAssertTrue(doctor.stdout.contains("integrity ok"), doctor.stdout + doctor.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["hostbook.db"])

        // Writing stays an error that says why.
        let add = try user.hostbook(["--db", db, "add", "x", "--hostname", "x.example"])
        XCTAssertEqual(add.status, 1)
        XCTAssertTrue(add.stderr.hasPrefix("hostbook: "), add.stderr)

        // A root-owned folder is trusted (as OpenSSH trusts root): the user's own file in it
        // is used. The folder is not writable by the user: the empty file cannot become a
        // database, but reading it answers as an empty store.
        let rootsFolder = try TemporaryDirectory(rootOnly: true)
        chmod(rootsFolder.path, 0o755)
        let shared = rootsFolder.file("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        chmod(shared, 0o755)
        let own = shared + "/mine.db"
        XCTAssertTrue(FileManager.default.createFile(atPath: own, contents: nil))
        chmod(own, 0o600)
        user.chown(own)
        let empty = try user.hostbook(["--db", own, "list"])
        XCTAssertEqual(empty.status, 0, empty.stderr)
        XCTAssertEqual(empty.stderr, "No hosts.\n")
    }

    /// The same, but a killed SQLite client left changes in -wal and no -shm: reading the
    /// file alone would miss them, so that is an error that says what to do. With the -shm
    /// left there too, SQLite reads both.
    func testUnsavedChangesInAReadOnlyFolderAreNotSilentlyMissed() throws {
        let user = try SecondUser()
        let dir = try TemporaryDirectory()
        chmod(dir.path, 0o755)
        let folder = dir.file("ro")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        chmod(folder, 0o700)
        user.chown(folder)
        let db = folder + "/hostbook.db"
        XCTAssertEqual(try user.hostbook(["--db", db, "add", "web", "--hostname", "web.example"]).status, 0)
        // sqlite3 commits a host with checkpoints off, then is killed: the row is only in -wal.
        _ = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", "/usr/bin/sqlite3", db,
                                 "PRAGMA wal_autocheckpoint=0; INSERT INTO hosts(uuid, name, hostname, created_at, updated_at) VALUES ('u-1', 'late', 'late.example', 'now', 'now');",
                                 ".system kill -9 $PPID"])
        XCTAssertGreaterThan((try FileManager.default.attributesOfItem(atPath: db + "-wal")[.size] as? NSNumber)?.intValue ?? 0, 0)
        chmod(folder, 0o500)
        defer { chmod(folder, 0o700) }
        let both = try user.hostbook(["--db", db, "list", "--json"])
        XCTAssertEqual(both.status, 0, both.stderr)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: both.stdoutBytes) as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["late", "web"])

        chmod(folder, 0o700)
        try FileManager.default.removeItem(atPath: db + "-shm")
        chmod(folder, 0o500)
        let r = try user.hostbook(["--db", db, "list", "--json"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "hostbook: cannot read the database '\(db)': its folder is not writable by you, and '\(db)-wal' holds changes SQLite can only read with a -shm file there\n"
            + "Run any hostbook command once as a user who can write '\(folder)' (that saves the changes into the database), or make the folder writable.\n")
    }
}
