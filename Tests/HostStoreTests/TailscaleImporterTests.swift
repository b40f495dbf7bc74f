// The import itself, against a real SQLite file: hosts, tags, pinned host keys, re-import,
// rotations, clashes, dry runs and all-or-nothing transactions.
import Foundation
@testable import HostStore
import ImportFormats
import KeyFormats
import XCTest
import TestSupport

final class TailscaleImporterTests: XCTestCase {
    let before = TailscaleFixtures.own("status-rotation-before.json")
    let after = TailscaleFixtures.own("status-rotation-after.json")

    func addManualHost(_ db: TemporaryDatabase, _ name: String) throws {
        try db.connection.run("""
            INSERT INTO hosts (uuid, name, hostname, source, created_at, updated_at)
            VALUES (?, ?, 'manual.example.com', 'manual', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')
            """, [.text(UUIDString.random()), .text(name)])
    }

    func testStatusSmall() throws {
        let db = try TemporaryDatabase()
        let report = try db.importAll(try TailscaleFixtures.document(TailscaleFixtures.own("status-four-peers.json")))
        XCTAssertEqual([report.count(.added), report.count(.updated), report.count(.unchanged), report.count(.skipped)], [3, 0, 0, 2])
        XCTAssertEqual(report.entriesTrusted, 18)
        XCTAssertEqual(try db.strings("SELECT name || ' ' || hostname || ' ' || source || ' ' || source_id FROM hosts ORDER BY name"), [
            "alices-macbook-air alices-macbook-air.tail4f21c8.ts.net tailscale nV2dG8sLqCNTRL",
            "db-prod-1 db-prod-1.tail4f21c8.ts.net tailscale nB6tX3hMeCNTRL",
            "web01 web01.tail4f21c8.ts.net tailscale nK4pRz7YwCNTRL",
        ])
        XCTAssertEqual(try db.strings("SELECT tag FROM host_tags JOIN hosts ON hosts.id = host_id WHERE name = 'db-prod-1' ORDER BY tag"), ["tag:db", "tag:prod"])
        XCTAssertEqual(try db.strings("SELECT os || ' ' || online || ' ' || COALESCE(last_seen, '-') FROM tailscale_nodes JOIN hosts ON hosts.id = host_id ORDER BY name"),
                       ["macOS 0 2026-11-27T18:42:10Z", "linux 1 -", "linux 1 -"])
        // Each key for the FQDN and both Tailscale IPs (docs/formats.md, "From a device to a
        // host").
        let web = try db.strings("SELECT \(KnownHostsSQL.fingerprint) FROM known_hosts WHERE pattern = 'web01.tail4f21c8.ts.net' ORDER BY id")
        XCTAssertEqual(web, ["SHA256:yi8mIVGo1JRe7dIS9wFZgkH5zL/Bw5HTsyp42FJb37Q", "SHA256:VCJOAmUdPwUMSFBhqgzbve6qzdSzGesS5o1QkfiBgQs",
                             "SHA256:uxH/ugFVSm+a3rqwjcKq64YKz9aitMfePgOZrE2VUJM"])
        XCTAssertEqual(try db.strings("SELECT DISTINCT pattern FROM known_hosts WHERE \(KnownHostsSQL.fingerprint) = 'SHA256:IDlAfbh6KQQKSFykpTcFR3LlBetPvuUCqrK94xKwOVg' ORDER BY pattern"),
                       ["100.88.14.3", "db-prod-1.tail4f21c8.ts.net", "fd7a:115c:a1e0:ab12:4843:cd96:6258:e03"])
        XCTAssertEqual(try db.count("SELECT count(*) FROM known_hosts WHERE source = 'tailscale' AND port = 22 AND marker = '' AND approved_at IS NOT NULL"), 18)
        XCTAssertEqual(try db.count("SELECT count(*) FROM host_key_events WHERE event = 'imported' AND source = 'tailscale'"), 18)
    }

    func testDuplicateHostnamesAndUnicodeSamples() throws {
        let db = try TemporaryDatabase()
        try db.importAll(try TailscaleFixtures.document(TailscaleFixtures.own("status-same-hostname.json")))
        try db.importAll(try TailscaleFixtures.document(TailscaleFixtures.own("status-unicode-names.json")))
        XCTAssertEqual(try db.strings("SELECT name FROM hosts ORDER BY name"),
                       ["raspberrypi", "raspberrypi-1", "rd-lab", "xn---01-2f1nx7p", "xn--bcher-nas-q9a", "zos-build-box"])
        let pins: [(String, String)] = [
            ("raspberrypi.tail4f21c8.ts.net", "SHA256:t2JOg2IBtGexKLgFb5cLNwnl9oWIKT/UjbC+xpNKz5A"),
            ("raspberrypi-1.tail4f21c8.ts.net", "SHA256:+ekFrZUhj3TA03u6FKTT7QCnuje2ZHG5oxEsIQ+b0Kw"),
            ("xn--bcher-nas-q9a.tail4f21c8.ts.net", "SHA256:/0pblHj5I9W7zJCwcsjrGwDbuvlLWV2SIzj/XQreDH4"),
        ]
        for (pattern, fp) in pins {
            XCTAssertEqual(try db.strings("SELECT \(KnownHostsSQL.fingerprint) FROM known_hosts WHERE pattern = ?", [.text(pattern)]), [fp], pattern)
        }
    }

    func testReimportIsIdempotent() throws {
        let db = try TemporaryDatabase()
        let doc = try TailscaleFixtures.document(before)
        try db.importAll(doc)
        let snapshot = try db.strings("SELECT count(*) || '/' || (SELECT count(*) FROM host_tags) || '/' || (SELECT count(*) FROM known_hosts) || '/' || (SELECT count(*) FROM host_key_events) FROM hosts")
        let again = try db.importAll(doc)
        XCTAssertEqual([again.count(.added), again.count(.updated), again.count(.unchanged), again.count(.skipped)], [0, 0, 2, 1])
        XCTAssertEqual(again.entriesTrusted, 0)
        XCTAssertEqual(again.rotations, [])
        XCTAssertEqual(try db.strings("SELECT count(*) || '/' || (SELECT count(*) FROM host_tags) || '/' || (SELECT count(*) FROM known_hosts) || '/' || (SELECT count(*) FROM host_key_events) FROM hosts"), snapshot)
        XCTAssertEqual(snapshot, ["2/1/8/8"])
    }

    func testReimportUpdatesAndKeepsWhatTheUserChanged() throws {
        let db = try TemporaryDatabase()
        try db.importAll(try TailscaleFixtures.document(before))
        // The user renames cache01, sets a user, a note, a tag of their own, and drops nothing.
        try db.connection.run("UPDATE hosts SET name = 'ci-cache', user = 'ops', note = 'mine' WHERE name = 'cache01'")
        try db.connection.run("INSERT INTO host_tags (host_id, tag) SELECT id, 'favourite' FROM hosts WHERE name = 'ci-cache'")
        var doc = try TailscaleFixtures.document(after)
        let i = try XCTUnwrap(doc.nodes.firstIndex { $0.nodeID == "nFixCache01CNTRL" })
        doc.nodes[i].dnsName = "cache01.tailnew123.ts.net"
        doc.nodes[i].tags = ["tag:cache"]
        var options = TailscaleImportOptions()
        options.sshUser = "deploy"
        let report = try db.importAll(doc, options)
        let cache = try XCTUnwrap(report.hosts.first { $0.nodeID == "nFixCache01CNTRL" })
        XCTAssertEqual(cache.action, .updated)
        XCTAssertEqual(cache.name, "ci-cache")
        XCTAssertEqual(try db.strings("SELECT name || ' ' || hostname || ' ' || user || ' ' || note FROM hosts WHERE source_id = 'nFixCache01CNTRL'"),
                       ["ci-cache cache01.tailnew123.ts.net ops mine"])
        XCTAssertEqual(try db.strings("SELECT tag FROM host_tags JOIN hosts ON hosts.id = host_id WHERE name = 'ci-cache' ORDER BY tag"),
                       ["favourite", "tag:cache"])
        XCTAssertEqual(try db.strings("SELECT online || ' ' || last_seen || ' ' || tags FROM tailscale_nodes JOIN hosts ON hosts.id = host_id WHERE name = 'ci-cache'"),
                       ["0 2026-11-28T07:00:00+02:00 tag:cache"])
        // --user fills in a user only where none is set.
        XCTAssertEqual(try db.strings("SELECT user FROM hosts WHERE name = 'build01'"), ["deploy"])
        XCTAssertEqual(try db.count("SELECT count(*) FROM hosts"), 2)
    }

    func testRotationIsRecordedAndReported() throws {
        let db = try TemporaryDatabase()
        try db.importAll(try TailscaleFixtures.document(before))
        let report = try db.importAll(try TailscaleFixtures.document(after))
        let old = "SHA256:vN+SsgvrBxyA2iYFkEcQE1xltiipjSCWfEs9kWwJQ5I", new = "SHA256:E/9vrCab7RZE88AQqwrzWf5UWjO1bn4S4RTDY1pQl+g"
        XCTAssertEqual(report.rotations, [TailscaleKeyRotation(host: "build01", keyType: "ssh-ed25519", oldFingerprint: old, newFingerprint: new)])
        XCTAssertEqual(report.entriesTrusted, 3)
        XCTAssertEqual(try db.strings("""
            SELECT host || ' ' || key_type || ' ' || old_fingerprint || ' ' || fingerprint || ' ' || source
            FROM host_key_events WHERE event = 'replaced' ORDER BY id
            """), ["build01.tail7c3e90.ts.net", "100.80.1.1", "fd7a:115c:a1e0::5001:101"].map { "\($0) ssh-ed25519 \(old) \(new) tailscale" })
        XCTAssertEqual(try db.count("SELECT count(*) FROM known_hosts WHERE \(KnownHostsSQL.fingerprint) = ?", [.text(old)]), 0)
        XCTAssertEqual(try db.count("SELECT count(*) FROM known_hosts WHERE \(KnownHostsSQL.fingerprint) = ?", [.text(new)]), 3)
        // The ECDSA key did not change and is still trusted once per name.
        XCTAssertEqual(try db.count("SELECT count(*) FROM known_hosts WHERE key_type = 'ecdsa-sha2-nistp256'"), 3)
    }

    func testAKeyTrustedFromElsewhereIsNotOverwritten() throws {
        let db = try TemporaryDatabase()
        // The user approved another ed25519 key for build01 on first use.
        let k3 = try PublicKeyLineHelper.blob("AAAAC3NzaC1lZDI1NTE5AAAAIDTuQOHJ7pz5MacwRqZc5juOJNf2N0RHMpPJ0VYnp9P1")
        try db.connection.run("""
            INSERT INTO known_hosts (pattern, port, marker, key_type, key_blob, fingerprint, source, first_seen, approved_at)
            VALUES ('build01.tail7c3e90.ts.net', 22, '', 'ssh-ed25519', ?, 'SHA256:bD48GIaaVxfO73xLjcEhzRAzGU4bSs0mXkzNVOslMzU', 'tofu', 'x', 'x')
            """, [.blob(k3)])
        // And revoked the ECDSA key for the IPv4 address.
        try db.connection.run("""
            INSERT INTO known_hosts (pattern, port, marker, key_type, key_blob, fingerprint, source, first_seen)
            VALUES ('100.80.1.1', 22, 'revoked', 'ecdsa-sha2-nistp256', ?, 'SHA256:Sc2J4/HSZ56j1YA6gkIeY1nygTGa+EPkwAgjCXx7BVM', 'manual', 'x')
            """, [.blob(try PublicKeyLineHelper.blob("AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBKbLsrgLHP+LBnZ4pgc+j6R25ScmwTVzpVjruEyEUI4iGdOpuBeehaiEUS1KUvRhLM4xX8lUhLNW3mmsas2O0Zo="))])
        let report = try db.importAll(try TailscaleFixtures.document(before))
        // OpenSSH's rule (issue 9, hole 8): beside the key the user approved, any other key —
        // of any type — is a change, so neither of the device's keys is added for that name.
        let conflict = "another key (SHA256:bD48GIaaVxfO73xLjcEhzRAzGU4bSs0mXkzNVOslMzU) is trusted from tofu"
        XCTAssertEqual(report.keyProblems.map { "\($0.host) \($0.pattern) \($0.keyType) \($0.reason)" }, [
            "build01 build01.tail7c3e90.ts.net ecdsa-sha2-nistp256 \(conflict)",
            "build01 build01.tail7c3e90.ts.net ssh-ed25519 \(conflict)",
            "build01 100.80.1.1 ecdsa-sha2-nistp256 the key is revoked",
        ])
        XCTAssertEqual(report.keyProblems.map(\.remedy), [.approveReplacing, .approveReplacing, nil], "the fix of a conflict is `known-hosts approve --replace`")
        XCTAssertEqual(try db.strings("SELECT source FROM known_hosts WHERE pattern = 'build01.tail7c3e90.ts.net'"), ["tofu"])
        XCTAssertEqual(try db.count("SELECT count(*) FROM known_hosts WHERE pattern = '100.80.1.1' AND marker = ''"), 1)
        XCTAssertEqual(report.entriesTrusted, 5)
    }

    /// Entries a plain lookup cannot find count too: a hashed name (as `ssh-keygen -H`
    /// writes) holding another key of the same type, and a revoked key under a wildcard.
    func testHashedAndWildcardEntriesAreHonoured() throws {
        let db = try TemporaryDatabase()
        let hashed = HashedHostName(hashing: "build01.tail7c3e90.ts.net", salt: Array(repeating: 7, count: 20)).text
        try db.connection.run("""
            INSERT INTO known_hosts (pattern, port, marker, key_type, key_blob, fingerprint, source, first_seen, approved_at)
            VALUES (?, 0, '', 'ssh-ed25519', ?, 'SHA256:bD48GIaaVxfO73xLjcEhzRAzGU4bSs0mXkzNVOslMzU', 'import', 'x', 'x')
            """, [.text(hashed), .blob(try PublicKeyLineHelper.blob("AAAAC3NzaC1lZDI1NTE5AAAAIDTuQOHJ7pz5MacwRqZc5juOJNf2N0RHMpPJ0VYnp9P1"))])
        try db.connection.run("""
            INSERT INTO known_hosts (pattern, port, marker, key_type, key_blob, fingerprint, source, first_seen)
            VALUES ('100.80.*,!100.80.9.9', 0, 'revoked', 'ecdsa-sha2-nistp256', ?, 'SHA256:Sc2J4/HSZ56j1YA6gkIeY1nygTGa+EPkwAgjCXx7BVM', 'import', 'x')
            """, [.blob(try PublicKeyLineHelper.blob("AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBKbLsrgLHP+LBnZ4pgc+j6R25ScmwTVzpVjruEyEUI4iGdOpuBeehaiEUS1KUvRhLM4xX8lUhLNW3mmsas2O0Zo="))])
        let report = try db.importAll(try TailscaleFixtures.document(before))
        XCTAssertEqual(report.keyProblems.map { "\($0.pattern) \($0.keyType) \($0.reason.prefix(40))" }, [
            "build01.tail7c3e90.ts.net ecdsa-sha2-nistp256 another key (SHA256:bD48GIaaVxfO73xLjcEh",
            "build01.tail7c3e90.ts.net ssh-ed25519 another key (SHA256:bD48GIaaVxfO73xLjcEh",
            "100.80.1.1 ecdsa-sha2-nistp256 the key is revoked",
        ])
        // ecdsa for the IPv6 address, ed25519 for both addresses, cache01's key twice (the
        // name holds another key under its hashed entry: both of its keys are changes).
        XCTAssertEqual(report.entriesTrusted, 1 + 2 + 2)
    }

    /// Past the budget of HMAC tests, hashed entries are not compared, and the report says so.
    func testHashedEntriesBeyondTheBudgetAreReportedNotCompared() throws {
        let db = try TemporaryDatabase()
        let hashed = HashedHostName(hashing: "build01.tail7c3e90.ts.net", salt: Array(repeating: 7, count: 20)).text
        try db.connection.run("""
            INSERT INTO known_hosts (pattern, port, marker, key_type, key_blob, fingerprint, source, first_seen, approved_at)
            VALUES (?, 0, '', 'ssh-ed25519', ?, 'SHA256:bD48GIaaVxfO73xLjcEhzRAzGU4bSs0mXkzNVOslMzU', 'import', 'x', 'x')
            """, [.text(hashed), .blob(try PublicKeyLineHelper.blob("AAAAC3NzaC1lZDI1NTE5AAAAIDTuQOHJ7pz5MacwRqZc5juOJNf2N0RHMpPJ0VYnp9P1"))])
        var options = TailscaleImportOptions()
        options.hashedTestBudget = 4
        options.dryRun = true
        let report = try db.importAll(try TailscaleFixtures.document(before), options)
        XCTAssertEqual(report.notes, [ImportNote("1 hashed known_hosts entry was not compared with the 5 imported names (too many to test)",
                                                 remedy: .knownHostsCheckStillApplies)])
        XCTAssertEqual(report.keyProblems, [])
        options.hashedTestBudget = 5
        XCTAssertEqual(try db.importAll(try TailscaleFixtures.document(before), options).keyProblems.count, 2)
    }

    func testNameClashIsSkippedOrRenamed() throws {
        let db = try TemporaryDatabase()
        try addManualHost(db, "BUILD01")
        let doc = try TailscaleFixtures.document(before)
        let skipped = try db.importAll(doc)
        let build = try XCTUnwrap(skipped.hosts.first { $0.nodeID == "nFixBuild01CNTRL" })
        XCTAssertEqual(build.action, .skipped)
        XCTAssertEqual(build.reason, "a host named 'build01' already exists (not this Tailscale node); use --rename-clashes to import it under another name")
        XCTAssertEqual(try db.count("SELECT count(*) FROM known_hosts WHERE pattern = 'build01.tail7c3e90.ts.net'"), 0)

        try addManualHost(db, "build01-2")
        var options = TailscaleImportOptions()
        options.renameClashes = true
        let renamed = try db.importAll(doc, options)
        let again = try XCTUnwrap(renamed.hosts.first { $0.nodeID == "nFixBuild01CNTRL" })
        XCTAssertEqual(again.action, .added)
        XCTAssertEqual(again.name, "build01-3")
        XCTAssertEqual(again.reason, "renamed: a host named 'build01' already exists")
        XCTAssertEqual(renamed.count(.unchanged), 1)
    }

    func testTwoTailnetsWithTheSameShortNameUseFullNames() throws {
        let db = try TemporaryDatabase()
        try db.importAll(try TailscaleFixtures.document(TailscaleFixtures.own("status-two-tailnets.json")))
        XCTAssertEqual(try db.strings("SELECT name FROM hosts ORDER BY name"), ["nas.tail7c3e90.ts.net", "nas.tailb51d04.ts.net"])
    }

    func testDryRunWritesNothing() throws {
        let db = try TemporaryDatabase()
        try db.importAll(try TailscaleFixtures.document(before))
        var options = TailscaleImportOptions()
        options.dryRun = true
        let planned = try db.importAll(try TailscaleFixtures.document(after), options)
        XCTAssertTrue(planned.dryRun)
        XCTAssertEqual(planned.rotations.count, 1)
        XCTAssertEqual(planned.count(.updated), 1)
        XCTAssertEqual(try db.count("SELECT count(*) FROM host_key_events WHERE event = 'replaced'"), 0)
        XCTAssertEqual(try db.strings("SELECT tags FROM tailscale_nodes ORDER BY host_id"), ["", "tag:ci"])
        let real = try db.importAll(try TailscaleFixtures.document(after))
        XCTAssertEqual(real.hosts, planned.hosts)
        XCTAssertEqual(real.rotations, planned.rotations)
        XCTAssertEqual(real.entriesTrusted, planned.entriesTrusted)
    }

    /// A dry run on a database no import has written to writes nothing and still sees the
    /// hosts that are there.
    func testDryRunOnADatabaseNoImportHasWrittenTo() throws {
        let db = try TemporaryDatabase()
        try addManualHost(db, "build01")
        var options = TailscaleImportOptions()
        options.dryRun = true
        let report = try db.importAll(try TailscaleFixtures.document(before), options)
        XCTAssertEqual(report.hosts.first { $0.nodeID == "nFixBuild01CNTRL" }?.action, .skipped)
        XCTAssertEqual(report.count(.added), 1)
        XCTAssertEqual(try db.count("SELECT count(*) FROM tailscale_nodes"), 0)
        XCTAssertEqual(try db.count("SELECT count(*) FROM hosts"), 1)
    }

    func testNoHostKeys() throws {
        let db = try TemporaryDatabase()
        var options = TailscaleImportOptions()
        options.trustHostKeys = false
        let report = try db.importAll(try TailscaleFixtures.document(before), options)
        XCTAssertEqual(report.count(.added), 2)
        XCTAssertEqual(report.entriesTrusted, 0)
        XCTAssertEqual(try db.count("SELECT count(*) FROM known_hosts"), 0)
    }

    func testInvalidHostKeysAreReportedAndTheRestTrusted() throws {
        let db = try TemporaryDatabase()
        let report = try db.importAll(try TailscaleFixtures.document(TailscaleFixtures.own("status-bad-host-key.json")))
        XCTAssertEqual(report.keyProblems.map(\.keyType), ["ssh-ed25519", "not-a-key"])
        XCTAssertEqual(report.entriesTrusted, 2)
        XCTAssertEqual(report.hosts.first { $0.name == "keybox" }?.hostKeys, 1)
    }

    /// A failure part way (here a trigger refusing the last key) leaves the database as it was.
    func testAFailureHalfWayWritesNothing() throws {
        let db = try TemporaryDatabase()
        try db.connection.execute("""
            CREATE TEMP TRIGGER refuse BEFORE INSERT ON known_hosts WHEN NEW.pattern = '100.80.1.2'
            BEGIN SELECT RAISE(ABORT, 'disk on fire'); END;
            """)
        XCTAssertThrowsError(try db.importAll(try TailscaleFixtures.document(before))) { error in
            XCTAssertEqual((error as? HostStoreError)?.kind, .database)
            XCTAssertEqual((error as? HostStoreError)?.message, "disk on fire")
        }
        for table in ["hosts", "host_tags", "known_hosts", "host_key_events", "tailscale_nodes"] {
            XCTAssertEqual(try db.count("SELECT count(*) FROM \(table)"), 0, table)
        }
    }
}

/// Decodes the base64 of a public key for direct inserts.
enum PublicKeyLineHelper {
    static func blob(_ base64: String) throws -> [UInt8] {
        Array(try XCTUnwrap(Data(base64Encoded: base64)))
    }
}

/// Large imports into an empty known-hosts store drop its indexes and rebuild them at the end.
final class TailscaleBulkImportTests: XCTestCase {
    /// Generated ECDSA public blobs by device and seed, so that a document made twice holds
    /// the same keys (made-up bytes are no point on the curve, and no key to ssh or hostbook).
    var ecdsaKeys: [String: [UInt8]] = [:]
    func ecdsaKey(_ i: Int, seed: Int) -> [UInt8] {
        if let known = ecdsaKeys["\(i)/\(seed)"] { return known }
        let blob = try! PrivateKeyGenerator.generate(.ecdsa, bits: 256, comment: "").publicKey.blob
        ecdsaKeys["\(i)/\(seed)"] = blob
        return blob
    }

    /// `count` devices, each with rsa, ecdsa and ed25519 host keys (made-up bytes in valid
    /// layout for rsa and ed25519, a generated ecdsa key), an IPv4 and an IPv6 address: 9
    /// known_hosts entries per device.
    func document(_ count: Int, seed: Int = 1) -> TailscaleDocument {
        func string(_ b: [UInt8]) -> [UInt8] { [0, 0, 0, UInt8(b.count)] + b }
        func bytes(_ n: Int, _ salt: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ salt &* 13 &+ seed &* 101) } }
        var nodes: [TailscaleNode] = []
        for i in 0..<count {
            var modulus = bytes(128, i)
            modulus[0] = 0xc1          // 1024 bits; the mpint needs a zero byte in front
            modulus[127] |= 1
            let rsa = string(Array("ssh-rsa".utf8)) + string([1, 0, 1]) + [0, 0, 0, 129, 0] + modulus
            let ecdsa = ecdsaKey(i, seed: seed)
            let ed = string(Array("ssh-ed25519".utf8)) + string(bytes(32, i))
            var n = TailscaleNode()
            n.nodeID = "nBulk\(i)CNTRL"
            n.dnsName = "bulk-\(i).tail7c3e90.ts.net"
            n.os = "linux"
            n.online = true
            n.addresses = ["100.90.\(i / 256).\(i % 256)", "fd7a:115c:a1e0::9:\(String(i, radix: 16))"]
            n.sshHostKeys = [("ssh-rsa", rsa), ("ecdsa-sha2-nistp256", ecdsa), ("ssh-ed25519", ed)].map { $0.0 + " " + Data($0.1).base64EncodedString() }
            nodes.append(n)
        }
        return TailscaleDocument(format: .status, backendState: "Running", nodes: nodes)
    }

    func indexes(_ db: TemporaryDatabase) throws -> [String] {
        try db.strings("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('known_hosts', 'host_key_events') AND sql IS NOT NULL ORDER BY name")
    }

    func testBulkImportRebuildsTheIndexesAndReimportsUnchanged() throws {
        let db = try TemporaryDatabase()
        let before = try indexes(db)
        XCTAssertTrue(before.contains("known_hosts_name"), "\(before)")
        let report = try db.importAll(document(1200))
        XCTAssertEqual(report.count(.added), 1200)
        XCTAssertEqual(report.keyProblems, [])
        XCTAssertEqual(report.entriesTrusted, 1200 * 9)
        XCTAssertEqual(try indexes(db), before)
        XCTAssertEqual(try db.count("SELECT count(*) FROM known_hosts"), 1200 * 9)
        XCTAssertEqual(try db.count("SELECT count(*) FROM host_key_events WHERE event = 'imported'"), 1200 * 9)
        let again = try db.importAll(document(1200))
        XCTAssertEqual(again.count(.unchanged), 1200)
        XCTAssertEqual(again.entriesTrusted, 0)
        // New keys for every device: rotations, found through the rebuilt indexes.
        let rotated = try db.importAll(document(1200, seed: 2))
        XCTAssertEqual(rotated.rotations.count, 3600)
        XCTAssertEqual(try db.count("SELECT count(*) FROM host_key_events WHERE event = 'replaced'"), 1200 * 9)
        XCTAssertEqual(try db.count("SELECT count(*) FROM known_hosts"), 1200 * 9)
    }

    /// Two devices claiming one address (not something Tailscale hands out): in bulk mode the
    /// second still sees what the first wrote, so the address ends with one key per type.
    func testANameWrittenTwiceInOneBulkImportIsLookedUp() throws {
        let db = try TemporaryDatabase()
        var doc = document(1200)
        doc.nodes[1].addresses[0] = doc.nodes[0].addresses[0]
        let report = try db.importAll(doc)
        XCTAssertEqual(report.rotations.map(\.host), ["bulk-1", "bulk-1", "bulk-1"])
        XCTAssertEqual(try db.count("SELECT count(*) FROM known_hosts WHERE pattern = ?", [.text(doc.nodes[0].addresses[0])]), 3)
        XCTAssertEqual(try db.count("SELECT count(*) FROM known_hosts"), 1200 * 9 - 3)
    }

    func testABulkImportThatFailsRestoresTheIndexes() throws {
        let db = try TemporaryDatabase()
        let before = try indexes(db)
        try db.connection.execute("""
            CREATE TEMP TRIGGER refuse BEFORE INSERT ON known_hosts WHEN NEW.pattern = 'bulk-1199.tail7c3e90.ts.net'
            BEGIN SELECT RAISE(ABORT, 'disk on fire'); END;
            """)
        XCTAssertThrowsError(try db.importAll(document(1200)))
        XCTAssertEqual(try indexes(db), before)
        XCTAssertEqual(try db.count("SELECT count(*) FROM known_hosts"), 0)
        XCTAssertEqual(try db.count("SELECT count(*) FROM hosts"), 0)
    }
}

/// Whatever a device list holds, what the import writes is valid for hostbook: host names
/// and hostnames that pass host validation, tags that pass tag validation, and known_hosts
/// names that are plain names (never a pattern or a hashed-looking field).
final class TailscaleRandomInputTests: XCTestCase {
    func testRandomDevicesOnlyEverWriteValidRows() throws {
        var rng = SeededGenerator()
        let pieces = ["web01", "Bücher", "서버", "🚀", "*", "?", "!", ",", "|1|", " ", ".", "..", "-", "_", "\u{202E}",
                      "\u{1B}[2J", "xn--", "xn--zz", "100.64.0.1", "fd7a::1", "[::1]", "%eth0", "tag:", "A", "0", ""]
        func junk() -> String { (0..<Int.random(in: 0...5, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined() }
        let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIP1bJvlrd+7p4T6xtakwqQR3DRoz67gRs0jN4BkEHc6T"
        for round in 0..<20 {
            var nodes: [TailscaleNode] = []
            for i in 0..<40 {
                var n = TailscaleNode()
                n.nodeID = Bool.random(using: &rng) ? "n\(round)-\(i)" : junk()
                n.dnsName = junk() + (Bool.random(using: &rng) ? ".tail1.ts.net" : "")
                n.hostName = junk()
                n.os = junk()
                n.addresses = (0..<Int.random(in: 0...3, using: &rng)).map { _ in junk() }
                n.tags = (0..<Int.random(in: 0...3, using: &rng)).map { _ in (Bool.random(using: &rng) ? "tag:" : "") + junk() }
                n.sshHostKeys = Bool.random(using: &rng) ? [key, junk()] : []
                nodes.append(n)
            }
            let db = try TemporaryDatabase()
            var options = TailscaleImportOptions()
            options.renameClashes = Bool.random(using: &rng)
            options.selection = TailscaleSelection(includeSkipped: true)
            _ = try db.importAll(TailscaleDocument(format: .status, backendState: "Running", nodes: nodes), options)
            for row in try db.connection.query("SELECT name, hostname FROM hosts") {
                XCTAssertNoThrow(try HostValidation.name(row.text(0) ?? ""), "\(row)")
                XCTAssertNoThrow(try HostValidation.hostname(row.text(1) ?? ""), "\(row)")
            }
            for tag in try db.strings("SELECT tag FROM host_tags") { XCTAssertNoThrow(try HostValidation.tag(tag), tag) }
            for pattern in try db.strings("SELECT pattern FROM known_hosts") {
                XCTAssertEqual(KnownHostRow.kind(of: pattern), .plain, pattern)
                XCTAssertTrue(pattern.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f }, pattern)
            }
        }
    }
}
