// `hostbook doctor`'s database checks (DatabaseChecks) in-process, on real SQLite files:
// a missing database is healthy, and an unreadable file, a newer schema, damaged pages and an
// unfinished backup are each one finding that names its check. Moved from the binary
// (HostbookTests/DoctorCommandTests), which keeps the report's text and JSON layout.
import Foundation
@testable import HostStore
import TestSupport
import XCTest

final class DatabaseChecksTests: XCTestCase {
    var folder: TempFolder!
    var path: String { folder.file("hostbook.db") }

    override func setUpWithError() throws { folder = try TempFolder() }
    override func tearDown() { folder = nil }

    /// A database made by hostbook with one host, closed again.
    private func makeDatabase(_ sql: String = "") throws {
        let db = try HostDatabase.open(path: path)
        _ = try db.addHost(NewHost(name: "h0", hostname: "h0.example", tags: ["t"]))
        if !sql.isEmpty { try db.connection.execute(sql) }
    }

    private func checks(_ r: DatabaseReport, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        for f in r.findings { XCTAssertFalse(f.fix.isEmpty, "every finding says how to fix it: \(f.check)", file: file, line: line) }
        return r.findings.map(\.check)
    }

    func testNoDatabaseIsHealthyAndNothingIsCreated() throws {
        let r = DatabaseChecks.run(path: path)
        XCTAssertFalse(r.exists)
        XCTAssertEqual(r.findings, [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    func testAHealthyDatabaseHasNoFindings() throws {
        try makeDatabase()
        let r = DatabaseChecks.run(path: path)
        XCTAssertTrue(r.exists)
        XCTAssertEqual(r.schemaVersion, Schema.currentVersion)
        XCTAssertEqual(r.findings, [])
    }

    /// Was DoctorCommandTests.testCorruptionAndNewerSchemaAreReported (binary).
    func testAFileThatIsNotSQLiteIsOneOpenFinding() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x42, count: 8192),
                                                    attributes: [.posixPermissions: 0o600]))
        let r = DatabaseChecks.run(path: path)
        XCTAssertEqual(checks(r), ["database.open"])
        XCTAssertEqual(r.findings.map(\.message), ["the database cannot be read: file is not a database"])
        XCTAssertEqual(r.findings.first?.severity, .error)
    }

    /// Was DoctorCommandTests.testCorruptionAndNewerSchemaAreReported (binary).
    func testANewerSchemaIsOneFindingAndLeftUntouched() throws {
        try makeDatabase("PRAGMA user_version = 42")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let r = DatabaseChecks.run(path: path)
        XCTAssertEqual(checks(r), ["database.schema"])
        XCTAssertEqual(r.findings.map(\.message), ["database schema version 42 is newer than this hostbook supports (\(Schema.currentVersion))"])
        XCTAssertEqual(r.schemaVersion, 42)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    /// Was DoctorCommandTests.testDamagedPagesFailTheIntegrityCheck (binary, ~20 s in CI):
    /// 300 tagged hosts, then part of the tag index's root page overwritten.
    func testDamagedPagesFailTheIntegrityCheck() throws {
        try makeDatabase("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 299)
            INSERT INTO hosts (uuid, name, hostname, created_at, updated_at)
                SELECT lower(hex(randomblob(16))), 'h' || i, 'h' || i || '.example', created_at, updated_at
                FROM n, (SELECT created_at, updated_at FROM hosts WHERE name = 'h0');
            INSERT INTO host_tags (host_id, tag) SELECT id, 't' FROM hosts WHERE name != 'h0';
            PRAGMA wal_checkpoint(TRUNCATE);
            PRAGMA journal_mode = DELETE;
            """)
        let page: Int64
        do {
            let conn = try HostDatabase.connectForReading(path: path)
            XCTAssertEqual(try conn.query("SELECT count(*) FROM host_tags WHERE tag = 't'").first?.int(0), 300)
            XCTAssertEqual(DatabaseChecks.run(path: path).findings, [], "healthy before the damage")
            page = try XCTUnwrap(try conn.query("SELECT rootpage FROM sqlite_master WHERE name = 'host_tags_tag'").first?.int(0))
        }
        let h = try XCTUnwrap(FileHandle(forUpdatingAtPath: path))
        try h.seek(toOffset: UInt64((page - 1) * 4096 + 200))
        h.write(Data(repeating: 0x7f, count: 600))
        try h.close()
        let r = DatabaseChecks.run(path: path)
        XCTAssertTrue(checks(r).contains("database.integrity"), "\(checks(r)) \(r.findings.map(\.message))")
        XCTAssertEqual(r.findings.first { $0.check == "database.integrity" }?.severity, .error)
    }

    /// Was DoctorCommandTests.testAnUnfinishedBackupIsReported (binary).
    func testAnUnfinishedBackupIsReported() throws {
        try makeDatabase()
        let partial = path + ".v1.4242.partial"
        XCTAssertTrue(FileManager.default.createFile(atPath: partial, contents: Data("torn".utf8), attributes: [.posixPermissions: 0o600]))
        let r = DatabaseChecks.run(path: path)
        XCTAssertEqual(checks(r), ["database.backup"])
        XCTAssertEqual(r.findings.first?.message, "'\(partial)' is an unfinished backup left by an interrupted migration")
        XCTAssertEqual(r.findings.first?.severity, .warning)
    }

    /// An old schema is read, not migrated: doctor changes nothing.
    func testAnOldSchemaIsReadAndLeftAlone() throws {
        try FileManager.default.copyItem(atPath: PackageRoot.path + "/testdata/hoststore/hostbook-v1.db", toPath: path)
        XCTAssertEqual(chmod(path, 0o600), 0)
        let r = DatabaseChecks.run(path: path)
        XCTAssertEqual(r.schemaVersion, 1)
        XCTAssertEqual(r.findings, [])
        XCTAssertEqual(try HostDatabase.connectForReading(path: path).userVersion, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["hostbook.db"])
    }
}
