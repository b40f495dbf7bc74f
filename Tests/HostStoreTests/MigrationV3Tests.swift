// Schema version 3 (released) migrated to the current one: testdata/hoststore/hostbook-v3.db,
// made by make-v3-fixture.sh from the version-2 fixture and the version-3 SQL, with rows in
// every table and a known_hosts entry of each kind version 4's indexes treat differently
// (plain, another port, pattern list, hashed with and without `hashed`).
import Foundation
@testable import HostStore
import KeyFormats
import XCTest
import TestSupport

final class MigrationV3Tests: XCTestCase {
    static let fixture = PackageRoot.path + "/testdata/hoststore/hostbook-v3.db"
    /// The fixture's host key (make-v3-fixture.sh).
    static let key = "AAAAC3NzaC1lZDI1NTE5AAAAIAPabh6zxSO/v5QOncS4+ruvFjly5uFKAtF85O+gCwLS"

    func copy(to tmp: TempFolder) throws -> String {
        let path = tmp.file("hostbook.db")
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: path)
        return path
    }

    func testFixtureIsVersion3WithRowsInEveryTable() throws {
        let conn = try SQLiteConnection(path: Self.fixture, create: false, readOnly: true)
        XCTAssertEqual(try conn.userVersion, 3)
        for (table, rows) in try MigrationTests.dump(conn) { XCTAssertFalse(rows.isEmpty, "\(table) is empty in the fixture") }
        XCTAssertEqual(try conn.query("SELECT count(*) FROM known_hosts").first?.int(0), 7)
    }

    /// The fixture's schema is what the program makes for version 3.
    func testFixtureSchemaEqualsTheProgramsVersion3() throws {
        let tmp = try TempFolder()
        let fresh = try SQLiteConnection(path: tmp.file("v3.db"))
        try Schema.migrate(fresh, path: tmp.file("v3.db"), to: 3)
        let fixture = try SQLiteConnection(path: Self.fixture, create: false, readOnly: true)
        let sql = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
        XCTAssertEqual(try fresh.query(sql).map { $0.values }, try fixture.query(sql).map { $0.values })
    }

    /// Version 4 changes indexes only, version 5 adds empty tables and columns with their
    /// defaults: every row of every table is the same, the backup is the version-3 file, and the lookups use
    /// the new indexes.
    func testMigratingVersion3KeepsEveryRowAndBacksUpFirst() throws {
        let tmp = try TempFolder()
        let path = try copy(to: tmp)
        let before = try MigrationTests.dump(SQLiteConnection(path: path, create: false, readOnly: true))

        let db = try HostDatabase.open(path: path)
        XCTAssertEqual(try db.connection.userVersion, Schema.currentVersion)
        // Every row kept; version 5 adds empty tables, keys.confirm and keys.grant_seconds
        // (0 for all), and the agent log's reason, decision, process_chain and
        // forwarded_through (NULL in the rows already there).
        var after = try MigrationTests.dump(db.connection)
        XCTAssertEqual(after.removeValue(forKey: "host_aliases"), [])
        XCTAssertEqual(after.removeValue(forKey: "key_namespaces"), [])
        XCTAssertEqual(after.removeValue(forKey: "key_git_identities"), [])
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

        let b = try SQLiteConnection(path: path + ".v3.bak", create: false, readOnly: true)
        XCTAssertEqual(try b.userVersion, 3)
        XCTAssertEqual(try MigrationTests.dump(b), before)

        let indexes = try db.connection.query("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'known_hosts' ORDER BY name")
            .map { ($0.text(0) ?? "", $0.text(1) ?? "") }
        // Version 7 drops known_hosts_unhashed with the `hashed` column (KnownHostsSQL.unpacked
        // reads the ids of hashed rows above the pack instead).
        XCTAssertEqual(indexes.map(\.0), ["known_hosts_bundle_source", "known_hosts_hashed_ids", "known_hosts_name", "known_hosts_wildcards"])
        XCTAssertEqual(indexes.map(\.0), KnownHostsSchema.indexes.map(\.name).sorted())
        XCTAssertTrue(indexes[2].1.hasSuffix("WHERE port != 0"), indexes[2].1)
        let probe: [SQLValue] = [.text("x"), .int(22), .text(""), .blob([0]), .int(0)]
        for (sql, index, values) in [(KnownHostsSQL.plainAtPort, "known_hosts_name", 2), (KnownHostsSQL.plainExists, "known_hosts_name", 4),
                                     (KnownHostsSQL.importExists, "known_hosts_name", 5), (KnownHostsSQL.byName, "known_hosts_name", 1),
                                     (KnownHostsSQL.wildcards, "known_hosts_wildcards", 0),
                                     (KnownHostsSQL.sameEntry, "known_hosts_name", 5), (KnownHostsSQL.bySource, "known_hosts_bundle_source", 1)] {
            let p = try db.connection.query("EXPLAIN QUERY PLAN " + sql, Array(probe.prefix(values))).compactMap { $0.text(3) }.joined(separator: "; ")
            XCTAssertTrue(p.contains("INDEX \(index)"), "\(sql): \(p)")
        }
        // Only rows with a port are in the name index; only the pattern list in
        // known_hosts_wildcards.
        func count(_ index: String) throws -> Int64? {
            try db.connection.query("SELECT count(*) FROM known_hosts INDEXED BY \(index) WHERE " + [
                "known_hosts_name": "pattern > '' COLLATE NOCASE AND port != 0",
                "known_hosts_wildcards": KnownHostsSQL.patternList,
            ][index]!).first?.int(0)
        }
        XCTAssertEqual(try count("known_hosts_name"), 3)
        // The hashed row written without `hashed` (id 7) is above `packed_through`: every
        // check tests it (a range of known_hosts_hashed_ids).
        XCTAssertEqual(try db.connection.query(KnownHostsSQL.unpacked).compactMap { $0.int(0) }, [7])
        let unpackedPlan = try db.connection.query("EXPLAIN QUERY PLAN " + KnownHostsSQL.unpacked).compactMap { $0.text(3) }.joined(separator: "; ")
        XCTAssertTrue(unpackedPlan.contains("INDEX known_hosts_hashed_ids (id>?)"), unpackedPlan)
        XCTAssertEqual(try count("known_hosts_wildcards"), 1)
    }

    /// Every entry of the version-3 store decides as before, the hashed ones first through
    /// the stale-pack scan (the fixture's pack is stale), then through the pack an import
    /// rebuilds; an import finds entries of each kind already stored as duplicates.
    func testEveryEntryDecidesTheSameAfterMigrating() throws {
        let tmp = try TempFolder()
        let store = KnownHostsStore(database: try HostDatabase.open(path: try copy(to: tmp)))
        let key = try PublicKey(blob: try XCTUnwrap(Base64.decode(Self.key)))
        let other = PublicKey(.ed25519(publicKey: [UInt8](repeating: 9, count: 32)))
        let cases: [(String, Int, PublicKey, HostKeyStatus)] = [
            ("plain.v3.example", 22, key, .trusted), ("PLAIN.v3.example", 22, key, .trusted), ("plain.v3.example", 22, other, .changed),
            ("ported.v3.example", 2200, key, .trusted), ("ported.v3.example", 22, key, .unknown),
            ("a.list.v3.example", 22, key, .trusted), ("bad.list.v3.example", 22, key, .unknown),
            ("hashed.v3.example", 22, key, .trusted), ("hashed.v3.example", 22, other, .changed),
            ("unhashed.v3.example", 2200, key, .trusted), ("unhashed.v3.example", 22, key, .unknown),
            ("bastion.example.com", 22, key, .unknown),
        ]
        func decide() throws {
            for (host, port, k, expected) in cases {
                XCTAssertEqual(try store.check(HostLookupName(host: host, port: port), presented: .plain(k)).decision.status, expected, "\(host):\(port)")
            }
        }
        try decide()
        let file = """
            plain.v3.example ssh-ed25519 \(Self.key)
            [ported.v3.example]:2200 ssh-ed25519 \(Self.key)
            *.list.v3.example,!bad.list.v3.example ssh-ed25519 \(Self.key)
            |1|MDEyMzQ1Njc4OTo7PD0+P0BBQkM=|NHqngYD0SNFueUshVEm+DkMaNQ4= ssh-ed25519 \(Self.key)
            |1|UFFSU1RVVldYWVpbXF1eX2BhYmM=|P2AJLFlbyuD5PzBd9fAWz+uAwUM= ssh-ed25519 \(Self.key)
            \(HashedHostName(hashing: "new.v3.example", salt: [UInt8](repeating: 7, count: 20)).text) ssh-ed25519 \(Self.key)

            """
        XCTAssertEqual(try store.importKnownHosts(Array(file.utf8)), KnownHostsImportReport(imported: 1, duplicates: 5, skipped: []))
        let state = try store.connection.query("SELECT hashed_generation = pack_generation FROM known_hosts_state").first?.int(0)
        XCTAssertEqual(state, 1, "the import made the pack current")
        try decide()
        XCTAssertEqual(try store.check(HostLookupName(host: "new.v3.example"), presented: .plain(key)).decision.status, .trusted)
    }

    /// A store without hashed rows has a current (empty) pack from version 4 on, fresh or
    /// migrated, so a check never falls back to the stale-pack scan, which reads the whole
    /// table; one with hashed rows keeps its pack state, and so does a plain import.
    func testAStoreWithoutHashedRowsHasACurrentPack() throws {
        let tmp = try TempFolder()
        func current(_ c: SQLiteConnection) throws -> Bool {
            try c.query("SELECT hashed_generation = pack_generation FROM known_hosts_state").first?.int(0) == 1
        }
        let fresh = try HostDatabase.open(path: tmp.file("fresh.db"))
        XCTAssertTrue(try current(fresh.connection))
        _ = try KnownHostsStore(database: fresh).importKnownHosts(Array("plain.test ssh-ed25519 \(Self.key)\n".utf8))
        XCTAssertTrue(try current(fresh.connection))

        let old = try SQLiteConnection(path: tmp.file("v3.db"))
        try Schema.migrate(old, path: tmp.file("v3.db"), to: 3)
        XCTAssertFalse(try current(old))
        try old.run("INSERT INTO known_hosts_hash_pack (chunk, records) VALUES (0, x'00')")
        try old.run("""
            INSERT INTO known_hosts (pattern, port, key_type, key_blob, fingerprint, source, first_seen)
            VALUES ('plain.test', 22, 'ssh-ed25519', x'00', 'SHA256:x', 'tofu', 'x')
            """)
        try Schema.migrate(old, path: tmp.file("v3.db"))
        XCTAssertTrue(try current(old))
        XCTAssertEqual(try old.query("SELECT count(*) FROM known_hosts_hash_pack").first?.int(0), 0)

        let hashed = try SQLiteConnection(path: try copy(to: tmp))
        try Schema.migrate(hashed, path: tmp.file("hostbook.db"))
        XCTAssertFalse(try current(hashed), "the fixture's hashed rows keep their stale pack")
    }
}
