// Schema version 4 (released) migrated to the current one: testdata/hoststore/hostbook-v4.db,
// made by make-v4-fixture.sh from the version-3 fixture and the version-4 SQL, with rows in
// every table, a known_hosts entry and an agent refusal written under version 4.
import Foundation
@testable import HostStore
import KeyFormats
import XCTest
import TestSupport

final class MigrationV4Tests: XCTestCase {
    static let fixture = PackageRoot.path + "/testdata/hoststore/hostbook-v4.db"

    func copy(to tmp: TempFolder) throws -> String {
        let path = tmp.file("hostbook.db")
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: path)
        return path
    }

    func testFixtureIsVersion4WithRowsInEveryTable() throws {
        let conn = try SQLiteConnection(path: Self.fixture, create: false, readOnly: true)
        XCTAssertEqual(try conn.userVersion, 4)
        let dump = try MigrationTests.dump(conn)
        for (table, rows) in dump { XCTAssertFalse(rows.isEmpty, "\(table) is empty in the fixture") }
        XCTAssertEqual(try conn.query("SELECT count(*) FROM known_hosts").first?.int(0), 8)
        // The version-3 fixture's rows, every one, with the version-4 rows after them.
        let v3 = try MigrationTests.dump(SQLiteConnection(path: MigrationV3Tests.fixture, create: false, readOnly: true))
        XCTAssertEqual(Set(dump.keys), Set(v3.keys))
        for (table, rows) in v3 { XCTAssertEqual(Array(dump[table]?.prefix(rows.count) ?? []), rows, table) }
        XCTAssertEqual(dump["known_hosts"]?.count, 8)
        XCTAssertEqual(dump["host_key_events"]?.count, (v3["host_key_events"]?.count ?? 0) + 1)
        XCTAssertEqual(dump["agent_log"]?.count, 2)
    }

    /// The fixture's schema is what the program makes for version 4.
    func testFixtureSchemaEqualsTheProgramsVersion4() throws {
        let tmp = try TempFolder()
        let fresh = try SQLiteConnection(path: tmp.file("v4.db"))
        try Schema.migrate(fresh, path: tmp.file("v4.db"), to: 4)
        let fixture = try SQLiteConnection(path: Self.fixture, create: false, readOnly: true)
        let sql = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
        XCTAssertEqual(try fresh.query(sql).map { $0.values }, try fixture.query(sql).map { $0.values })
    }

    /// Version 5 adds empty tables and columns with their defaults, version 6 empty tables
    /// and an index: every row of every table is the same, and the backup is the version-4 file.
    func testMigratingVersion4KeepsEveryRowAndBacksUpFirst() throws {
        let tmp = try TempFolder()
        let path = try copy(to: tmp)
        let before = try MigrationTests.dump(SQLiteConnection(path: path, create: false, readOnly: true))

        let db = try HostDatabase.open(path: path)
        XCTAssertEqual(try db.connection.userVersion, Schema.currentVersion)
        // Every row kept; version 5 adds empty tables, keys.confirm and keys.grant_seconds
        // (0 for all), and the agent log's reason, decision, process_chain and
        // forwarded_through (NULL in the rows already there).
        var after = try MigrationTests.dump(db.connection)
        for table in ["host_aliases", "key_namespaces", "key_git_identities"] {
            XCTAssertEqual(after.removeValue(forKey: table), [], table)
        }
        // Version 6: the empty team-bundle tables.
        // Version 7: the file imports (none: the old entries keep their own time and source).
        // Version 8: keys' certificates (none).
        // Version 9: the empty certificate-authority tables.
        // Version 10: the hosts whose host-key rotation is turned off (none).
        for table in ["bundle_signers", "bundle_subscriptions", "bundle_applied", "bundle_snippets", "known_hosts_imports", "key_certificates", "known_hosts_rotation_off", "certificate_authorities", "ca_certificates", "ca_revocations",
                      "bundle_exported", "bundle_overrides", "agent_upstreams", "bundle_user_omitted", "snippet_tags", "token_keys",
                      "bundle_ca_scopes", "known_hosts_revocation_lists"] {
            XCTAssertEqual(after.removeValue(forKey: table), [], table)
        }
        XCTAssertEqual(after["keys"], before["keys"]?.map { $0 + "|int(0)|int(0)" })
        after["keys"] = before["keys"]
        XCTAssertEqual(after["agent_log"], before["agent_log"]?.map { $0 + "|null|null|null|null|null" })
        after["agent_log"] = before["agent_log"]
        XCTAssertEqual(after, before)
        XCTAssertEqual(try db.connection.query("PRAGMA integrity_check").first?.text(0), "ok")
        XCTAssertEqual(try db.connection.query("PRAGMA foreign_key_check").count, 0)

        // The backup is the version-4 database, row for row, mode 0600.
        let backup = path + ".v4.bak"
        XCTAssertEqual(DatabaseFiles.mode(of: backup), 0o600)
        let b = try SQLiteConnection(path: backup, create: false, readOnly: true)
        XCTAssertEqual(try b.userVersion, 4)
        XCTAssertEqual(try MigrationTests.dump(b), before)

        // The migrated data reads through the API: the version-4 entry decides, the
        // refusal is in the log with no reason or decision (written before version 5).
        let store = KnownHostsStore(database: db)
        let key = try PublicKey(blob: try XCTUnwrap(Base64.decode(MigrationV3Tests.key)))
        XCTAssertEqual(try store.check(HostLookupName(host: "PLAIN.v4.example", port: 22), presented: .plain(key)).decision.status, .trusted)
        let other = PublicKey(.ed25519(publicKey: [UInt8](repeating: 9, count: 32)))
        XCTAssertEqual(try store.check(HostLookupName(host: "plain.v4.example", port: 22), presented: .plain(other)).decision.status, .changed)
        XCTAssertEqual(try store.check(HostLookupName(host: "v4.example", port: 22), presented: .plain(key)).decision.status, .unknown)
        let log = try db.agentLog()
        XCTAssertEqual(log.count, 2)
        let refusal = try XCTUnwrap(log.last)
        XCTAssertEqual(refusal.at, "2026-01-04T05:06:08.250Z")
        XCTAssertFalse(refusal.signed)
        XCTAssertTrue(refusal.forwarded)
        XCTAssertEqual(refusal.clientPID, 4343)
        XCTAssertNil(refusal.reason)
        XCTAssertNil(refusal.decision)
        XCTAssertNil(refusal.processChain)
        XCTAssertNil(refusal.forwardedThrough)
        let laptop = try XCTUnwrap(try KeyStore(database: db).find(name: "laptop"))
        XCTAssertFalse(laptop.confirm)
        XCTAssertEqual(laptop.grantSeconds, 0)
    }
}
