// Schema version 5 (released) migrated to the current one: testdata/hoststore/hostbook-v5.db,
// made by make-v5-fixture.sh from the version-4 fixture and the version-5 SQL, with rows in
// every table (host aliases, key namespaces, git signing) and a value in every column
// version 5 added (keys.confirm and grant_seconds, the agent log's reason, decision,
// process_chain and forwarded_through).
import Foundation
@testable import HostStore
import XCTest
import TestSupport

final class MigrationV5Tests: XCTestCase {
    static let fixture = PackageRoot.path + "/testdata/hoststore/hostbook-v5.db"

    func copy(to tmp: TempFolder) throws -> String {
        let path = tmp.file("hostbook.db")
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: path)
        return path
    }

    func testFixtureIsVersion5WithRowsInEveryTableAndEveryNewColumn() throws {
        let conn = try SQLiteConnection(path: Self.fixture, create: false, readOnly: true)
        XCTAssertEqual(try conn.userVersion, 5)
        let dump = try MigrationTests.dump(conn)
        for (table, rows) in dump { XCTAssertFalse(rows.isEmpty, "\(table) is empty in the fixture") }
        XCTAssertEqual(Set(dump.keys).subtracting(try MigrationTests.dump(SQLiteConnection(path: MigrationV4Tests.fixture, create: false,
                                                                                            readOnly: true)).keys),
                       ["host_aliases", "key_namespaces", "key_git_identities"])
        for column in ["confirm", "grant_seconds"] {
            XCTAssertEqual(try conn.query("SELECT count(*) FROM keys WHERE \(column) != 0").first?.int(0), 1, column)
        }
        for column in ["reason", "decision", "process_chain", "forwarded_through"] {
            XCTAssertGreaterThan(try conn.query("SELECT count(*) FROM agent_log WHERE \(column) IS NOT NULL").first?.int(0) ?? 0, 0, column)
        }
    }

    /// The fixture's schema is what the program makes for version 5.
    func testFixtureSchemaEqualsTheProgramsVersion5() throws {
        let tmp = try TempFolder()
        let fresh = try SQLiteConnection(path: tmp.file("v5.db"))
        try Schema.migrate(fresh, path: tmp.file("v5.db"), to: 5)
        let fixture = try SQLiteConnection(path: Self.fixture, create: false, readOnly: true)
        let sql = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
        XCTAssertEqual(try fresh.query(sql).map { $0.values }, try fixture.query(sql).map { $0.values })
    }

    /// Version 6 adds empty tables and an index: every row of every table is the same, and
    /// the backup is the version-5 file.
    func testMigratingVersion5KeepsEveryRowAndBacksUpFirst() throws {
        let tmp = try TempFolder()
        let path = try copy(to: tmp)
        let before = try MigrationTests.dump(SQLiteConnection(path: path, create: false, readOnly: true))

        let db = try HostDatabase.open(path: path)
        XCTAssertEqual(try db.connection.userVersion, Schema.currentVersion)
        var after = try MigrationTests.dump(db.connection)
        // Version 6: the empty team-bundle tables.
        // Version 7: the file imports (none: the old entries keep their own time and source).
        // Version 8: keys' certificates (none), and the agent log's certificate (NULL in the rows already there).
        // Version 9: the empty certificate-authority tables.
        // Version 10: the hosts whose host-key rotation is turned off (none).
        for table in ["bundle_signers", "bundle_subscriptions", "bundle_applied", "bundle_snippets", "known_hosts_imports", "key_certificates", "known_hosts_rotation_off", "certificate_authorities", "ca_certificates", "ca_revocations",
                      "bundle_exported", "bundle_overrides", "agent_upstreams", "bundle_user_omitted", "snippet_tags", "token_keys",
                      "bundle_ca_scopes", "known_hosts_revocation_lists"] {
            XCTAssertEqual(after.removeValue(forKey: table), [], table)
        }
        XCTAssertEqual(after["agent_log"], before["agent_log"]?.map { $0 + "|null" })
        after["agent_log"] = before["agent_log"]
        XCTAssertEqual(after, before)
        XCTAssertEqual(try db.connection.query("PRAGMA integrity_check").first?.text(0), "ok")
        XCTAssertEqual(try db.connection.query("PRAGMA foreign_key_check").count, 0)

        // The backup is the version-5 database, row for row, mode 0600.
        let backup = path + ".v5.bak"
        XCTAssertEqual(DatabaseFiles.mode(of: backup), 0o600)
        let b = try SQLiteConnection(path: backup, create: false, readOnly: true)
        XCTAssertEqual(try b.userVersion, 5)
        XCTAssertEqual(try MigrationTests.dump(b), before)

        // The version-5 data reads through the API.
        XCTAssertEqual(try db.host(named: "WWW")?.name, "web-1")
        XCTAssertEqual(try db.host(named: "web-1")?.aliases, ["www"])
        XCTAssertEqual(try db.host(named: "jump")?.name, "bastion")
        let laptop = try XCTUnwrap(try KeyStore(database: db).find(name: "laptop"))
        XCTAssertTrue(laptop.confirm)
        XCTAssertEqual(laptop.grantSeconds, 300)
        XCTAssertEqual(try KeyNamespaces(database: db).namespaces(of: laptop), ["file", "git"])
        XCTAssertEqual(try GitSigningKeys(database: db).email(of: laptop), "me@example.com")
        let log = try db.agentLog()
        XCTAssertEqual(log.count, 4)
        let refusal = log[2], signed = log[3]
        XCTAssertFalse(refusal.signed)
        XCTAssertEqual(refusal.reason, "the vault is locked; run 'hostbook vault unlock'")
        XCTAssertEqual(refusal.decision, "grant")
        XCTAssertEqual(refusal.processChain, "pid 4444 /usr/bin/ssh: ssh web-1")
        XCTAssertNil(refusal.forwardedThrough)
        XCTAssertTrue(signed.signed)
        XCTAssertNil(signed.reason)
        XCTAssertEqual(signed.decision, "prompt")
        XCTAssertEqual(signed.processChain, "pid 4545 /usr/bin/ssh: ssh web-1\npid 4500 /usr/bin/bash: -bash")
        XCTAssertEqual(signed.forwardedThrough, "bastion")
        XCTAssertTrue(signed.forwarded)
    }
}
