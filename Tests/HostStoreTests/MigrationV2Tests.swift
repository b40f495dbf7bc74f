// Schema version 2 (released) migrated to the current one: testdata/hoststore/hostbook-v2.db,
// made by make-v2-fixture.sh from the version-1 fixture and the version-2 SQL, with rows in
// every table.
import Foundation
@testable import HostStore
import XCTest
import TestSupport

final class MigrationV2Tests: XCTestCase {
    static let fixture = PackageRoot.path + "/testdata/hoststore/hostbook-v2.db"

    func testFixtureIsVersion2WithRowsInEveryTable() throws {
        let conn = try SQLiteConnection(path: Self.fixture, create: false, readOnly: true)
        XCTAssertEqual(try conn.userVersion, 2)
        for (table, rows) in try MigrationTests.dump(conn) { XCTAssertFalse(rows.isEmpty, "\(table) is empty in the fixture") }
    }

    /// The fixture's schema is what the program makes for version 2.
    func testFixtureSchemaEqualsTheProgramsVersion2() throws {
        let tmp = try TempFolder()
        let fresh = try SQLiteConnection(path: tmp.file("v2.db"))
        try Schema.migrate(fresh, path: tmp.file("v2.db"), to: 2)
        let fixture = try SQLiteConnection(path: Self.fixture, create: false, readOnly: true)
        let sql = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
        XCTAssertEqual(try fresh.query(sql).map { $0.values }, try fixture.query(sql).map { $0.values })
    }

    func testMigratingVersion2KeepsEveryRowAndBacksUpFirst() throws {
        let tmp = try TempFolder()
        let path = tmp.file("hostbook.db")
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: path)
        let before = try MigrationTests.dump(SQLiteConnection(path: path, create: false, readOnly: true))

        let db = try HostDatabase.open(path: path)
        XCTAssertEqual(try db.connection.userVersion, Schema.currentVersion)
        // Version 3 adds hosts.allow_agent_forwarding (0 for all), the empty ssh_config and
        // agent log tables, and drops the names checks had remembered.
        var after = try MigrationTests.dump(db.connection)
        XCTAssertEqual(after["hosts"]?.allSatisfy { $0.hasSuffix("|int(0)") }, true)
        after["hosts"] = after["hosts"]?.map { String($0.dropLast("|int(0)".count)) }
        // Version 5 adds keys.confirm and keys.grant_seconds (0 for all).
        XCTAssertEqual(after["keys"]?.allSatisfy { $0.hasSuffix("|int(0)|int(0)") }, true)
        after["keys"] = after["keys"]?.map { String($0.dropLast("|int(0)|int(0)".count)) }
        let expected = MigrationTests.withoutRememberedNames(before)
        XCTAssertEqual(after.filter { expected[$0.key] != nil }, expected)
        XCTAssertNil(after["known_hosts_hash_scans"])
        // Version 5 adds the empty host_aliases, key_namespaces and key_git_identities tables.
        // Version 6 adds the empty team-bundle tables.
        XCTAssertEqual(Set(after.keys).subtracting(before.keys), ["ssh_config_hosts", "agent_log", "host_aliases", "key_namespaces", "key_git_identities",
                                                                  "bundle_signers", "bundle_subscriptions", "bundle_applied", "bundle_snippets",
                                                                  "known_hosts_imports",
                                                                  // Version 8: keys' certificates (none).
                                                                  "key_certificates", "known_hosts_rotation_off",
                                                                  // Version 9: certificate authorities (none yet).
                                                                  "certificate_authorities", "ca_certificates", "ca_revocations",
                                                                  // Version 11: bundle serials exported, bundle hosts' own fields (none).
                                                                  "bundle_exported", "bundle_overrides",
                                                                  // Version 12: the upstream agents (none).
                                                                  "agent_upstreams",
                                                                  // Version 13: the hosts published without their user (none).
                                                                  "bundle_user_omitted", "snippet_tags",
                                                                  // Version 14: keys on PKCS#11 tokens (none).
                                                                  "token_keys",
                                                                  // Version 15: bundles' CA scopes and KRLs (none).
                                                                  "bundle_ca_scopes", "known_hosts_revocation_lists"])
        XCTAssertEqual(after["host_aliases"], [])
        XCTAssertEqual(after["key_namespaces"], [])
        XCTAssertEqual(after["key_git_identities"], [])
        XCTAssertEqual(after["ssh_config_hosts"], [])
        XCTAssertEqual(after["agent_log"], [])
        XCTAssertEqual(try db.connection.query("PRAGMA integrity_check").first?.text(0), "ok")
        XCTAssertEqual(try db.connection.query("PRAGMA foreign_key_check").count, 0)

        let b = try SQLiteConnection(path: path + ".v2.bak", create: false, readOnly: true)
        XCTAssertEqual(try b.userVersion, 2)
        XCTAssertEqual(try MigrationTests.dump(b), before)
        XCTAssertEqual(try db.host(named: "db.ts")?.source, "tailscale")
        XCTAssertEqual(try db.host(named: "WEB-1")?.jump, "bastion")
    }

    /// A dry run reads a version-2 database read-only without migrating it: the importer
    /// plans without the ssh_config table.
    func testAnSSHConfigDryRunReadsAVersion2DatabaseUnchanged() throws {
        let tmp = try TempFolder()
        let path = tmp.file("hostbook.db")
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: path)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let conn = try SQLiteConnection(path: path, create: false, readOnly: true)
        let report = try SSHConfigImporter(connection: conn).run(
            [SSHConfigCandidate(alias: "new", hostname: "new.example", sourceFile: "/c", sourceLine: 1),
             SSHConfigCandidate(alias: "bastion", hostname: "b.example", sourceFile: "/c", sourceLine: 2)], dryRun: true)
        XCTAssertEqual(report.hosts.map(\.action), [.added, .skipped])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
    }
}
