// Every released schema version keeps a fixture database and a test that migrates it
// (docs/hosts.md, "The database"). testdata/hoststore/hostbook-v1.db is made by make-v1-fixture.sh.
import Foundation
@testable import HostStore
import XCTest
import TestSupport

final class MigrationTests: XCTestCase {
    static let fixture = PackageRoot.path + "/testdata/hoststore/hostbook-v1.db"

    /// Every table of a database (whoever owns it).
    static func tables(_ conn: SQLiteConnection) throws -> [String] {
        try conn.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").compactMap { $0.text(0) }
    }

    /// Every row of every table, as text, for before/after comparison.
    /// A dump of a version 1 or 2 database as version 3 keeps it: without the names checks
    /// had remembered (`known_hosts.learned`, the last column, and `known_hosts_hash_scans`).
    static func withoutRememberedNames(_ dump: [String: [String]]) -> [String: [String]] {
        var kept = dump
        kept["known_hosts_hash_scans"] = nil
        kept["known_hosts"] = dump["known_hosts"]?.map { row in
            let columns = row.components(separatedBy: "|text(")
            return row.hasSuffix("null") ? String(row.dropLast("|null".count)) : columns.dropLast().joined(separator: "|text(")
        }
        return kept
    }

    static func dump(_ conn: SQLiteConnection) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        for t in try tables(conn) {
            // A table of one column (bundle_user_omitted) is ordered by it alone.
            let order = try conn.query("SELECT count(*) FROM pragma_table_info(?)", [.text(t)]).first?.int(0) == 1 ? "1" : "1, 2"
            out[t] = try conn.query("SELECT \(try columns(of: t, conn)) FROM \(t) ORDER BY \(order)").map { row in
                row.values.map { "\($0)" }.joined(separator: "|")
            }
        }
        return out
    }

    /// What a dump compares: every column, except what schema v7 derives instead of
    /// storing (KnownHostsSchema): known_hosts.hashed is left out of every version, a v7
    /// row's fingerprint, source and first-seen time are shown as its readers derive them,
    /// and v7's bookkeeping columns (the pack's `packed_through`, an event's position) are
    /// left out. MigrationV6Tests compares them, and every reader's output, on their own.
    static func columns(of table: String, _ conn: SQLiteConnection) throws -> String {
        let names = try conn.query("SELECT name FROM pragma_table_info(?1) ORDER BY cid", [.text(table)]).compactMap { $0.text(0) }
        switch table {
        case "known_hosts":
            let derived = ["fingerprint": KnownHostsSQL.fingerprint, "source": KnownHostsSQL.source, "first_seen": KnownHostsSQL.firstSeen]
            let v6Order = ["id", "pattern", "port", "marker", "key_type", "key_blob", "fingerprint", "source", "first_seen", "approved_at",
                           "comment", "learned"]
            let v7 = names.contains("import_id")
            return v6Order.filter(names.contains).map { v7 ? derived[$0] ?? $0 : $0 }.joined(separator: ", ")
        case "known_hosts_state":
            return names.filter { $0 != "packed_through" }.joined(separator: ", ")
        case "host_key_events":
            return names.filter { $0 != "after_event" && $0 != "entry" }.joined(separator: ", ")
        case "keys":
            // v12's location and sk_flags (every older key: vault, or security-key for an sk
            // type) are compared on their own in MigrationKeyLocationTests.
            return names.filter { $0 != "location" && $0 != "sk_flags" }.joined(separator: ", ")
        default:
            return "*"
        }
    }

    func copyFixture(to tmp: TempFolder) throws -> String {
        let path = tmp.file("hostbook.db")
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: path)
        return path
    }

    func testFixtureIsVersion1WithRowsInEveryTable() throws {
        let conn = try SQLiteConnection(path: Self.fixture, create: false, readOnly: true)
        XCTAssertEqual(try conn.userVersion, 1)
        let dump = try Self.dump(conn)
        XCTAssertGreaterThanOrEqual(dump.count, 7)
        for (table, rows) in dump { XCTAssertFalse(rows.isEmpty, "\(table) is empty in the fixture") }
    }

    /// The version-1 SQL exactly as the program runs it, for make-v1-fixture.sh: written to
    /// $HOSTBOOK_V1_SQL_OUT when that is set (the script sets it).
    func testVersion1SQL() throws {
        let sql = try XCTUnwrap(Schema.migrations.first { $0.version == 1 }).sql
        XCTAssertTrue(sql.contains("CREATE TABLE hosts"))
        if let out = ProcessInfo.processInfo.environment["HOSTBOOK_V1_SQL_OUT"] {
            try sql.write(toFile: out, atomically: true, encoding: .utf8)
        }
    }

    /// The version-2 SQL exactly as the program runs it, for make-v2-fixture.sh: written to
    /// $HOSTBOOK_V2_SQL_OUT when that is set (the script sets it).
    func testVersion2SQL() throws {
        let sql = try XCTUnwrap(Schema.migrations.first { $0.version == 2 }).sql
        XCTAssertTrue(sql.contains("CREATE TABLE IF NOT EXISTS tailscale_nodes"))
        if let out = ProcessInfo.processInfo.environment["HOSTBOOK_V2_SQL_OUT"] {
            try sql.write(toFile: out, atomically: true, encoding: .utf8)
        }
    }

    /// The version-3 SQL exactly as the program runs it, for make-v3-fixture.sh: written to
    /// $HOSTBOOK_V3_SQL_OUT when that is set (the script sets it).
    func testVersion3SQL() throws {
        let sql = try XCTUnwrap(Schema.migrations.first { $0.version == 3 }).sql
        XCTAssertTrue(sql.contains("CREATE TABLE IF NOT EXISTS ssh_config_hosts"))
        if let out = ProcessInfo.processInfo.environment["HOSTBOOK_V3_SQL_OUT"] {
            try sql.write(toFile: out, atomically: true, encoding: .utf8)
        }
    }

    /// The version-4 SQL exactly as the program runs it, for make-v4-fixture.sh: written to
    /// $HOSTBOOK_V4_SQL_OUT when that is set (the script sets it).
    func testVersion4SQL() throws {
        let sql = try XCTUnwrap(Schema.migrations.first { $0.version == 4 }).sql
        XCTAssertTrue(sql.contains("CREATE INDEX known_hosts_unhashed"))
        if let out = ProcessInfo.processInfo.environment["HOSTBOOK_V4_SQL_OUT"] {
            try sql.write(toFile: out, atomically: true, encoding: .utf8)
        }
    }

    /// The version-5 SQL exactly as the program runs it, for make-v5-fixture.sh: written to
    /// $HOSTBOOK_V5_SQL_OUT when that is set (the script sets it).
    func testVersion5SQL() throws {
        let sql = try XCTUnwrap(Schema.migrations.first { $0.version == 5 }).sql
        XCTAssertTrue(sql.contains("CREATE TABLE host_aliases"))
        if let out = ProcessInfo.processInfo.environment["HOSTBOOK_V5_SQL_OUT"] {
            try sql.write(toFile: out, atomically: true, encoding: .utf8)
        }
    }

    /// The fixture was made from the same SQL the program runs for version 1.
    func testFixtureSchemaEqualsTheProgramsVersion1() throws {
        let tmp = try TempFolder()
        let fresh = try SQLiteConnection(path: tmp.file("v1.db"))
        try Schema.migrate(fresh, path: tmp.file("v1.db"), to: 1)
        let fixture = try SQLiteConnection(path: Self.fixture, create: false, readOnly: true)
        let sql = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
        XCTAssertEqual(try fresh.query(sql).map { $0.values }, try fixture.query(sql).map { $0.values })
    }

    func testMigratingVersion1KeepsEveryRowAndBacksUpFirst() throws {
        let tmp = try TempFolder()
        let path = try copyFixture(to: tmp)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let before = try Self.dump(SQLiteConnection(path: path, create: false, readOnly: true))

        let db = try HostDatabase.open(path: path)
        XCTAssertEqual(try db.connection.userVersion, Schema.currentVersion)
        // Every table of version 1 keeps every row; version 2 adds only the (empty) Tailscale
        // table; version 3 the (empty) ssh_config and agent log tables and
        // hosts.allow_agent_forwarding, 0 for all, and drops the names checks had remembered
        // (known_hosts.learned, the last column, and known_hosts_hash_scans); version 5 the
        // (empty) host aliases.
        var after = try Self.dump(db.connection)
        XCTAssertEqual(after["hosts"]?.allSatisfy { $0.hasSuffix("|int(0)") }, true)
        after["hosts"] = after["hosts"]?.map { String($0.dropLast("|int(0)".count)) }
        // Version 5 adds keys.confirm and keys.grant_seconds (0 for all).
        XCTAssertEqual(after["keys"]?.allSatisfy { $0.hasSuffix("|int(0)|int(0)") }, true)
        after["keys"] = after["keys"]?.map { String($0.dropLast("|int(0)|int(0)".count)) }
        let expected = Self.withoutRememberedNames(before)
        XCTAssertEqual(after.filter { expected[$0.key] != nil }, expected)
        XCTAssertNil(after["known_hosts_hash_scans"])
        XCTAssertEqual(Set(after.keys).subtracting(before.keys), ["tailscale_nodes", "ssh_config_hosts", "agent_log", "host_aliases",
                                                                  "key_namespaces", "key_git_identities",
                                                                  // Version 6: team bundles.
                                                                  "bundle_signers", "bundle_subscriptions", "bundle_applied", "bundle_snippets",
                                                                  // Version 7: the file imports (none: every v1 entry keeps its own).
                                                                  "known_hosts_imports",
                                                                  // Version 8: keys' certificates (none yet).
                                                                  "key_certificates",
                                                                  // Version 9: certificate authorities (none yet).
                                                                  "certificate_authorities", "ca_certificates", "ca_revocations",
                                                                  // Version 10: the hosts whose rotation is turned off (none).
                                                                  "known_hosts_rotation_off",
                                                                  // Version 11: the serial each bundle was last exported with; bundle hosts' own fields.
                                                                  "bundle_exported", "bundle_overrides",
                                                                  // Version 12: the upstream agents (none).
                                                                  "agent_upstreams",
                                                                  // Version 13: the hosts published without their user (none).
                                                                  "bundle_user_omitted", "snippet_tags",
                                                                  // Version 14: keys on PKCS#11 tokens (none).
                                                                  "token_keys",
                                                                  // Version 15: bundles' CA scopes and KRLs (none).
                                                                  "bundle_ca_scopes", "known_hosts_revocation_lists"])
        XCTAssertEqual(after["key_certificates"], [])
        XCTAssertEqual(after["host_aliases"], [])
        XCTAssertEqual(after["agent_log"], [])
        // Version 5: no key is restricted to namespaces or set up for git.
        XCTAssertEqual(after["key_namespaces"], [])
        XCTAssertEqual(after["key_git_identities"], [])
        XCTAssertEqual(after["tailscale_nodes"], [])
        XCTAssertEqual(after["ssh_config_hosts"], [])
        XCTAssertEqual(db.databaseID, "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9")
        XCTAssertEqual(try db.connection.query("PRAGMA integrity_check").first?.text(0), "ok")
        XCTAssertEqual(try db.connection.query("PRAGMA foreign_key_check").count, 0)
        // Version 2's indexes exist and are used.
        let indexes = try db.connection.query("SELECT name FROM sqlite_master WHERE type = 'index' AND name IN ('host_tags_tag', 'hosts_jump', 'hosts_key', 'hosts_source') ORDER BY name").compactMap { $0.text(0) }
        XCTAssertEqual(indexes, ["host_tags_tag", "hosts_jump", "hosts_key", "hosts_source"])
        let plan = try db.connection.query("EXPLAIN QUERY PLAN SELECT id FROM hosts WHERE source = 'tailscale' AND source_id = 'x'")
            .compactMap { $0.text(3) }.joined()
        XCTAssertTrue(plan.contains("hosts_source"), plan)

        // The backup is the version-1 database, row for row, mode 0600.
        let backup = path + ".v1.bak"
        XCTAssertEqual(DatabaseFiles.mode(of: backup), 0o600)
        let b = try SQLiteConnection(path: backup, create: false, readOnly: true)
        XCTAssertEqual(try b.userVersion, 1)
        XCTAssertEqual(try Self.dump(b), before)
        XCTAssertNotEqual(original.count, 0)

        // The migrated data reads through the API.
        let web = try XCTUnwrap(try db.host(named: "WEB-1"))
        XCTAssertEqual(web.jump, "bastion")
        XCTAssertEqual(web.tags, ["prod", "web"])
        XCTAssertEqual(try db.host(named: "bastion")?.key, "laptop")
        XCTAssertEqual(try db.snippet(named: "disk")?.command, "df -h | sort -k5 -r  ")
    }

    func testReadingAnOldDatabaseMigratesIt() throws {
        let tmp = try TempFolder()
        let path = try copyFixture(to: tmp)
        let db = try XCTUnwrap(try HostDatabase.openForReading(path: path))
        XCTAssertEqual(try db.connection.userVersion, Schema.currentVersion)
        XCTAssertEqual(try db.hosts().count, 3)
    }

    func testASecondMigrationDoesNotOverwriteAnEarlierBackup() throws {
        let tmp = try TempFolder()
        let path = try copyFixture(to: tmp)
        try Data("earlier".utf8).write(to: URL(fileURLWithPath: path + ".v1.bak"))
        _ = try HostDatabase.open(path: path)
        XCTAssertEqual(try String(contentsOfFile: path + ".v1.bak", encoding: .utf8), "earlier")
        XCTAssertEqual(try SQLiteConnection(path: path + ".v1.2.bak", create: false, readOnly: true).userVersion, 1)
    }

    func testAMigrationThatFailsLeavesTheOldVersion() throws {
        let tmp = try TempFolder()
        let path = try copyFixture(to: tmp)
        // An object in the way of version 2's first statement makes the step fail.
        let conn = try SQLiteConnection(path: path)
        try conn.execute("CREATE TABLE hosts_source(x)")
        XCTAssertThrowsError(try HostDatabase.open(path: path))
        let after = try SQLiteConnection(path: path, create: false, readOnly: true)
        XCTAssertEqual(try after.userVersion, 1)
        XCTAssertEqual(try after.query("SELECT count(*) FROM sqlite_master WHERE name = 'host_tags_tag'").first?.int(0), 0)
    }
}
