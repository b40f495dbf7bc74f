// Opening, creating, modes, pragmas, and refusal of databases newer than the program.
import Foundation
@testable import HostStore
import XCTest
import TestSupport

final class HostDatabaseTests: XCTestCase {
    func testCreatesFolderAndFileWithPrivateModesAndWAL() throws {
        let tmp = try TempFolder()
        let path = tmp.file("a/b/hostbook.db")
        let db = try HostDatabase.open(path: path)
        XCTAssertEqual(DatabaseFiles.mode(of: tmp.file("a/b")), 0o700)
        XCTAssertEqual(DatabaseFiles.mode(of: tmp.file("a")), 0o755)
        XCTAssertEqual(DatabaseFiles.mode(of: path), 0o600)
        try db.addHost(NewHost(name: "x", hostname: "x.example"))
        XCTAssertEqual(DatabaseFiles.mode(of: path + "-wal"), 0o600)
        XCTAssertEqual(DatabaseFiles.mode(of: path + "-shm"), 0o600)
        XCTAssertEqual(try db.connection.query("PRAGMA journal_mode").first?.text(0), "wal")
        XCTAssertEqual(try db.connection.query("PRAGMA foreign_keys").first?.int(0), 1)
        XCTAssertEqual(try db.connection.userVersion, Schema.currentVersion)
        XCTAssertEqual(db.databaseID.count, 36)
        XCTAssertFalse(DatabaseFiles.exists(path + ".v0.bak"), "a new database is not backed up")
    }

    /// Commits are durable before the executable touches the vault (docs/architecture.md,
    /// "Layers"): synchronous=FULL on every connection that writes.
    func testWritesAreSynchronousFull() throws {
        let tmp = try TempFolder()
        let db = try HostDatabase.open(path: tmp.file("h.db"))
        XCTAssertEqual(try db.connection.query("PRAGMA synchronous").first?.int(0), 2)
        try db.addHost(NewHost(name: "x", hostname: "x.example"))
        XCTAssertEqual(try db.connection.query("PRAGMA synchronous").first?.int(0), 2)
    }

    func testDatabaseIDIsStableAcrossOpens() throws {
        let tmp = try TempFolder()
        let a = try HostDatabase.open(path: tmp.file("h.db")).databaseID
        let b = try HostDatabase.open(path: tmp.file("h.db")).databaseID
        XCTAssertEqual(a, b)
    }

    func testReadingAMissingDatabaseCreatesNothing() throws {
        let tmp = try TempFolder()
        XCTAssertNil(try HostDatabase.openForReading(path: tmp.file("sub/h.db")))
        XCTAssertFalse(DatabaseFiles.exists(tmp.file("sub")))
    }

    func testReadOnlyOpenOfCurrentDatabase() throws {
        let tmp = try TempFolder()
        try HostDatabase.open(path: tmp.file("h.db")).addHost(NewHost(name: "x", hostname: "x.example"))
        let db = try XCTUnwrap(try HostDatabase.openForReading(path: tmp.file("h.db")))
        XCTAssertTrue(db.isReadOnly)
        XCTAssertEqual(try db.hosts().map(\.name), ["x"])
    }

    func testNewerDatabaseIsRefusedAndLeftUntouched() throws {
        let tmp = try TempFolder()
        let path = tmp.file("h.db")
        do {
            let db = try HostDatabase.open(path: path)
            try db.connection.execute("PRAGMA journal_mode = DELETE")
            try db.connection.setUserVersion(Schema.currentVersion + 7)
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for open in [{ try HostDatabase.open(path: path) }, { try HostDatabase.openForReading(path: path)! }] {
            XCTAssertThrowsError(try open()) { error in
                let e = error as? HostStoreError
                XCTAssertEqual(e?.kind, .newerSchema)
                XCTAssertEqual(e?.message, "database schema version \(Schema.currentVersion + 7) is newer than this hostbook supports (\(Schema.currentVersion)); upgrade hostbook")
            }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), ["h.db"])
    }

    func testAFileThatIsNotADatabaseIsAClearError() throws {
        let tmp = try TempFolder()
        let path = tmp.file("h.db")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try HostDatabase.open(path: path)) { error in
            let e = error as? HostStoreError
            XCTAssertEqual(e?.kind, .failed)
            XCTAssertEqual(e?.message, "'\(path)' is not a usable hostbook database: file is not a database")
        }
    }

    func testUUIDsAreVersion4() {
        let u = UUIDString.random()
        XCTAssertEqual(u.count, 36)
        let c = Array(u)
        XCTAssertEqual(c[14], "4")
        XCTAssertTrue("89ab".contains(c[19]))
        XCTAssertNotEqual(u, UUIDString.random())
    }
}

final class ForeignDatabaseTests: XCTestCase {
    func testAnotherProgramsDatabaseIsRefusedUntouched() throws {
        let tmp = try TempFolder()
        let path = tmp.file("other.db")
        do {
            let c = try SQLiteConnection(path: path)
            try c.execute("CREATE TABLE notes(x); INSERT INTO notes VALUES (1)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try HostDatabase.open(path: path)) { e in
            XCTAssertEqual((e as? HostStoreError)?.message, "'\(path)' is an SQLite database, but not a hostbook database")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }
}
