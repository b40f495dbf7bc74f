// Schema version 6 (released) migrated to the current one (7, the compact known-hosts
// layout): testdata/hoststore/hostbook-v6.db, made by make-v6-fixture.sh with the version-6
// program from the version-5 fixture: a known_hosts file imported (plain, [host]:port,
// hashed, a pattern list, @revoked, @cert-authority, a certificate on an unmarked line),
// a key revoked by hand, Tailscale devices imported twice (a rotation), an imported entry
// removed, and a row in every bundle table. The readers' output across the migration is
// compared byte for byte by HostbookLogicTests/KnownHostsReadersAcrossVersionsTests.
import Foundation
@testable import HostStore
import KeyFormats
import XCTest
import TestSupport

final class MigrationV6Tests: XCTestCase {
    static let fixture = PackageRoot.path + "/testdata/hoststore/hostbook-v6.db"

    func copy(to tmp: TempFolder) throws -> String {
        let path = tmp.file("hostbook.db")
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: path)
        return path
    }

    func testFixtureIsVersion6WithEveryKindOfEntryAndRowsInEveryTable() throws {
        let conn = try SQLiteConnection(path: Self.fixture, create: false, readOnly: true)
        XCTAssertEqual(try conn.userVersion, 6)
        for (table, rows) in try MigrationTests.dump(conn) { XCTAssertFalse(rows.isEmpty, "\(table) is empty in the fixture") }
        func count(_ sql: String) throws -> Int64 { try conn.query("SELECT count(*) FROM known_hosts WHERE " + sql).first?.int(0) ?? -1 }
        XCTAssertGreaterThanOrEqual(try count("substr(pattern, 1, 1) = '|' AND hashed IS NOT NULL"), 2)
        XCTAssertGreaterThanOrEqual(try count("port = 2222"), 1)
        XCTAssertGreaterThanOrEqual(try count("marker = 'revoked' AND source = 'import'"), 1)
        XCTAssertGreaterThanOrEqual(try count("marker = 'revoked' AND source = 'manual'"), 1)
        XCTAssertGreaterThanOrEqual(try count("marker = 'cert-authority'"), 1)
        XCTAssertGreaterThanOrEqual(try count("key_type LIKE '%-cert-v01@openssh.com' AND marker = ''"), 1)
        XCTAssertGreaterThanOrEqual(try count("source = 'tailscale'"), 3)
        let events = try conn.query("SELECT event || ' ' || source FROM host_key_events").compactMap { $0.text(0) }
        for e in ["imported import", "imported tailscale", "replaced tailscale", "revoked manual", "removed manual"] {
            XCTAssertTrue(events.contains(e), e)
        }
        XCTAssertEqual(try conn.query("SELECT hashed_generation = pack_generation FROM known_hosts_state").first?.int(0), 1, "the import left the pack current")
    }

    /// The fixture's schema is what the program makes for version 6.
    func testFixtureSchemaEqualsTheProgramsVersion6() throws {
        let tmp = try TempFolder()
        let fresh = try SQLiteConnection(path: tmp.file("v6.db"))
        try Schema.migrate(fresh, path: tmp.file("v6.db"), to: 6)
        let fixture = try SQLiteConnection(path: Self.fixture, create: false, readOnly: true)
        let sql = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
        XCTAssertEqual(try fresh.query(sql).map { $0.values }, try fixture.query(sql).map { $0.values })
    }

    /// Version 7 rebuilds known_hosts in the compact layout: every row reads back the same
    /// (fingerprint, source and time derived where no longer stored), ids and the pack stay,
    /// the fingerprint is stored only where it is not the blob's, the backup is the v6 file.
    func testMigratingVersion6KeepsEveryRowInTheCompactLayout() throws {
        let tmp = try TempFolder()
        let path = try copy(to: tmp)
        let before = try MigrationTests.dump(SQLiteConnection(path: path, create: false, readOnly: true))
        let v6Rows = try SQLiteConnection(path: path, create: false, readOnly: true)
            .query("SELECT id, fingerprint, source, first_seen FROM known_hosts ORDER BY id").map { $0.values }

        let db = try HostDatabase.open(path: path)
        XCTAssertEqual(try db.connection.userVersion, Schema.currentVersion)
        var after = try MigrationTests.dump(db.connection)
        XCTAssertEqual(after.removeValue(forKey: "known_hosts_imports"), [])
        XCTAssertEqual(after.removeValue(forKey: "known_hosts_rotation_off"), [], "version 10: no host has rotation turned off")
        XCTAssertEqual(after.removeValue(forKey: "token_keys"), [], "version 14: no token key")
        XCTAssertEqual(after.removeValue(forKey: "bundle_ca_scopes"), [], "version 15: no scope granted")
        XCTAssertEqual(after.removeValue(forKey: "known_hosts_revocation_lists"), [], "version 15: no revocation list")
        // Version 8: keys' certificates (none), and the agent log's certificate (NULL in the rows already there).
        XCTAssertEqual(after.removeValue(forKey: "key_certificates"), [])
        XCTAssertEqual(after.removeValue(forKey: "agent_upstreams"), [], "version 12: no upstream agent saved")
        XCTAssertEqual(after.removeValue(forKey: "bundle_user_omitted"), [], "version 13: no host publishes without its user")
        XCTAssertEqual(after.removeValue(forKey: "snippet_tags"), [], "version 13: no snippet has tags")
        XCTAssertEqual(after["agent_log"], before["agent_log"]?.map { $0 + "|null" })
        after["agent_log"] = before["agent_log"]
        // Version 9: the empty certificate-authority tables.
        for table in ["certificate_authorities", "ca_certificates", "ca_revocations", "bundle_exported", "bundle_overrides"] { XCTAssertEqual(after.removeValue(forKey: table), [], table) }
        XCTAssertEqual(after, before)
        XCTAssertEqual(try db.connection.query("PRAGMA integrity_check").first?.text(0), "ok")
        XCTAssertEqual(try db.connection.query("PRAGMA foreign_key_check").count, 0)

        // Read through the store: the same fingerprints, sources and times as v6 stored.
        let rows = try KnownHostsStore(database: db).all()
        XCTAssertEqual(rows.map { [SQLValue.int($0.id), .text($0.fingerprint), .text($0.source), .text($0.firstSeen)] }, v6Rows)
        let columns = try db.connection.query("SELECT name FROM pragma_table_info('known_hosts')").compactMap { $0.text(0) }
        XCTAssertFalse(columns.contains("hashed"))
        // Stored fingerprints: only the certificate's (its embedded key's) and the v1
        // fixture's two made-up ones; every other is derived from the blob.
        let stored = try db.connection.query("SELECT key_type FROM known_hosts WHERE fingerprint IS NOT NULL ORDER BY id").compactMap { $0.text(0) }
        XCTAssertEqual(stored, ["ssh-ed25519", "ssh-ed25519", "ecdsa-sha2-nistp256-cert-v01@openssh.com"])
        let state = try db.connection.query("SELECT hashed_generation = pack_generation, packed_through, (SELECT max(id) FROM known_hosts) FROM known_hosts_state")
        XCTAssertEqual(state.first?.int(0), 1, "the pack stays current")
        // Row 7 is a hashed row some other writer left without `hashed` (the v3 fixture):
        // v6 found it through known_hosts_unhashed; v7 tests it, and every hashed row after
        // it, on each check until an import or a bundle rebuilds the pack.
        XCTAssertEqual(state.first?.int(1), 6)
        let hashedAbove = try db.connection.query("SELECT id FROM known_hosts WHERE substr(pattern, 1, 1) = '|' AND id > 6 ORDER BY id").compactMap { $0.int(0) }
        XCTAssertEqual(try db.connection.query(KnownHostsSQL.unpacked).compactMap { $0.int(0) }.sorted(), hashedAbove)
        XCTAssertEqual(hashedAbove.first, 7)
        _ = try KnownHostsStore(database: db).importKnownHosts(Array("|1|AAECAwQFBgcICQoLDA0ODxAREhM=|FBUWFxgZGhscHR4fICEiIyQlJic= ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4f\n".utf8))
        XCTAssertEqual(try db.connection.query(KnownHostsSQL.unpacked).count, 0, "the import rebuilt the pack")

        let b = try SQLiteConnection(path: path + ".v6.bak", create: false, readOnly: true)
        XCTAssertEqual(try b.userVersion, 6)
        XCTAssertEqual(try MigrationTests.dump(b), before)
    }

    /// Every kind of entry decides as before, the hashed ones through the pack.
    func testEveryEntryDecidesTheSameAfterMigrating() throws {
        let tmp = try TempFolder()
        let path = try copy(to: tmp)
        let old = try SQLiteConnection(path: path, create: false, readOnly: true)
        func key(_ pattern: String, _ marker: String = "") throws -> PublicKey {
            let blob = try XCTUnwrap(try old.query("SELECT key_blob FROM known_hosts WHERE pattern = ? AND marker = ?", [.text(pattern), .text(marker)]).first?.blob(0))
            return try PublicKey(blob: blob)
        }
        let k1 = try key("plain.v6.example"), k2 = try key("ported.v6.example")
        let store = KnownHostsStore(database: try HostDatabase.open(path: path))
        let cases: [(String, Int, PublicKey, HostKeyStatus)] = [
            ("plain.v6.example", 22, k1, .trusted), ("plain.v6.example", 22, k2, .revoked),
            ("ported.v6.example", 2222, k2, .trusted), ("ported.v6.example", 22, k2, .unknown),
            ("hashed.v6.example", 22, k1, .trusted), ("hashed.v6.example", 22, k2, .changed), ("10.6.0.1", 22, k2, .trusted),
            ("x.list.v6.example", 22, k1, .trusted), ("bad.list.v6.example", 22, k1, .unknown),
            ("revoked.v6.example", 22, k2, .revoked), ("gone.v6.example", 22, k1, .unknown),
        ]
        for (host, port, k, expected) in cases {
            XCTAssertEqual(try store.check(HostLookupName(host: host, port: port), presented: .plain(k)).decision.status, expected, "\(host):\(port)")
        }
    }

    /// An entry imported into the migrated store has its `imported` event derived from the
    /// row (nothing stored per entry); deleting it stores that event where it stood, so the
    /// history is the same plus the `removed` event, and a later import's events follow.
    func testDeletingAnImportedEntryKeepsItsEventInPlace() throws {
        let tmp = try TempFolder()
        let db = try HostDatabase.open(path: try copy(to: tmp))
        let store = KnownHostsStore(database: db)
        let a = KnownHostsStoreTests.ed25519(1), b = KnownHostsStoreTests.ed25519(2)
        let storedEvents = { try db.connection.query("SELECT count(*) FROM host_key_events").first?.int(0) ?? -1 }
        let eventsBefore = try storedEvents()
        let file = """
            first.v7.example ssh-ed25519 \(a.base64)
            \(HashedHostName(hashing: "hashed.v7.example", salt: [UInt8](repeating: 5, count: 20)).text) ssh-ed25519 \(a.base64)
            second.v7.example ssh-ed25519 \(b.base64)
            third.v7.example ssh-ed25519 \(a.base64)

            """
        XCTAssertEqual(try store.importKnownHosts(Array(file.utf8), source: "import").imported, 4)
        XCTAssertEqual(try storedEvents(), eventsBefore, "no event row per imported entry")
        XCTAssertEqual(try db.connection.query("SELECT count(*) FROM known_hosts WHERE import_id IS NOT NULL AND source IS NULL AND fingerprint IS NULL").first?.int(0), 4)
        let history = try store.allEvents()
        let imported = history.suffix(4)
        XCTAssertEqual(imported.map(\.host), ["first.v7.example", HashedHostName(hashing: "hashed.v7.example", salt: [UInt8](repeating: 5, count: 20)).text,
                                              "second.v7.example", "third.v7.example"])
        XCTAssertEqual(Set(imported.map(\.event)), ["imported"])
        XCTAssertEqual(imported.map(\.fingerprint), [a.sha256Fingerprint, a.sha256Fingerprint, b.sha256Fingerprint, a.sha256Fingerprint])
        XCTAssertEqual(Set(imported.map(\.source)), ["import"])
        XCTAssertEqual(try store.events(forHost: "SECOND.v7.example").map(\.fingerprint), [b.sha256Fingerprint])

        // Deleting an imported entry (like ssh-keygen -R).
        XCTAssertEqual(try store.remove(HostLookupName(host: "second.v7.example"), source: "manual").count, 1)
        let afterRemove = try store.allEvents()
        XCTAssertEqual(Array(afterRemove.dropLast()), history, "every event in its place, the deleted entry's included")
        XCTAssertEqual(afterRemove.last?.event, "removed")
        XCTAssertEqual(afterRemove.last?.host, "second.v7.example")
        XCTAssertEqual(try store.events(forHost: "second.v7.example").map(\.event), ["imported", "removed"])
        XCTAssertEqual(try storedEvents(), eventsBefore + 2, "the deleted entry's imported event and the removal")

        // A replaced imported entry keeps its event too; a later import's events come last.
        let c = KnownHostsStoreTests.ed25519(3)
        XCTAssertEqual(try store.replace(HostLookupName(host: "third.v7.example"), with: c, source: "manual").count, 1)
        XCTAssertEqual(try store.importKnownHosts(Array("fourth.v7.example ssh-ed25519 \(c.base64)\n".utf8), source: "import").imported, 1)
        let final = try store.allEvents()
        XCTAssertEqual(Array(final.prefix(history.count)), history)
        XCTAssertEqual(final.suffix(3).map { "\($0.event) \($0.host)" }, ["removed second.v7.example", "replaced third.v7.example", "imported fourth.v7.example"])
        // The list reads the derived columns: the import's source and time.
        let fourth = try XCTUnwrap(try store.entries(forHost: "fourth.v7.example").first)
        XCTAssertEqual(fourth.source, "import")
        XCTAssertEqual(fourth.fingerprint, c.sha256Fingerprint)
        XCTAssertEqual(fourth.firstSeen, final.last?.at)
    }
}
