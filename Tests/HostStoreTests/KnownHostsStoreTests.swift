// The known-hosts store over a real SQLite file: decisions through the indexes, the
// bare-name fallback, import of a known_hosts file with every kind of line, export read back by ssh-keygen -F.
import Foundation
import XCTest
@testable import HostStore
import KeyFormats
import TestSupport

final class KnownHostsStoreTests: KnownHostsStoreTestCase {
    static func ed25519(_ seed: UInt8) -> PublicKey {
        PublicKey(.ed25519(publicKey: (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 7 &+ Int(seed)) }))
    }

    /// Host keys and a known_hosts file with every kind of line (testkeys/make-known-hosts.sh).
    static var testdata: URL { PackageRoot.file("testkeys/hostkeys") }

    func status(_ host: String, _ port: Int = 22, _ key: PublicKey) throws -> HostKeyStatus {
        try store.check(HostLookupName(host: host, port: port), presented: .plain(key)).decision.status
    }

    func testDecisionsThroughTheStore() throws {
        let a = Self.ed25519(1), b = Self.ed25519(2), c = Self.ed25519(3)
        let salt = [UInt8](repeating: 5, count: 20)
        let file = """
            plain.test ssh-ed25519 \(a.base64)
            [ported.test]:2222 ssh-ed25519 \(a.base64)
            *.wild.test,!no.wild.test ssh-ed25519 \(b.base64)
            \(HashedHostName(hashing: "hashed.test", salt: salt).text) ssh-ed25519 \(c.base64)
            @revoked plain.test ssh-ed25519 \(c.base64)

            """
        let report = try store.importKnownHosts(Array(file.utf8))
        XCTAssertEqual(report, KnownHostsImportReport(imported: 5, duplicates: 0, skipped: []))
        let cases: [(String, Int, PublicKey, HostKeyStatus)] = [
            ("plain.test", 22, a, .trusted), ("PLAIN.Test", 22, a, .trusted), ("plain.test", 22, b, .changed),
            ("plain.test", 22, c, .revoked), ("other.test", 22, a, .unknown),
            ("plain.test", 2222, a, .trusted),   // [plain.test]:2222 unknown → falls back to the bare name
            ("plain.test", 2222, b, .unknown),   // the fallback only answers when it trusts (or revokes)
            ("plain.test", 2222, c, .revoked),
            ("ported.test", 2222, a, .trusted), ("ported.test", 22, a, .unknown), ("ported.test", 2222, b, .changed),
            ("x.wild.test", 22, b, .trusted), ("no.wild.test", 22, b, .unknown), ("x.wild.test", 22, a, .changed),
            ("hashed.test", 22, c, .trusted), ("HASHED.test", 22, c, .trusted), ("hashed.test", 22, a, .changed),
            ("hashed.test", 2200, c, .trusted),
        ]
        for (host, port, key, expected) in cases {
            XCTAssertEqual(try status(host, port, key), expected, "\(host):\(port)")
        }
        // A second import of the same file is all duplicates.
        XCTAssertEqual(try store.importKnownHosts(Array(file.utf8)), KnownHostsImportReport(imported: 0, duplicates: 5, skipped: []))
    }

    func testApproveReplaceRevokeRemoveAndEvents() throws {
        let a = Self.ed25519(1), b = Self.ed25519(2)
        let h = HostLookupName(host: "Host.Test", port: 2222)
        XCTAssertEqual(try store.check(h, presented: .plain(a)).decision.status, .unknown)
        XCTAssertTrue(try store.approve(h, key: a, source: "tofu"))
        XCTAssertFalse(try store.approve(h, key: a, source: "tofu"))
        XCTAssertEqual(try store.check(h, presented: .plain(a)).decision.status, .trusted)
        XCTAssertEqual(try store.check(h, presented: .plain(b)).decision.status, .changed)
        let removed = try store.replace(h, with: b, source: "manual")
        XCTAssertEqual(removed.map(\.fingerprint), [a.sha256Fingerprint])
        XCTAssertEqual(try store.check(h, presented: .plain(a)).decision.status, .changed)
        XCTAssertEqual(try store.check(h, presented: .plain(b)).decision.status, .trusted)
        XCTAssertTrue(try store.revoke(h, key: b, source: "manual"))
        XCTAssertEqual(try store.check(h, presented: .plain(b)).decision.status, .revoked)
        XCTAssertEqual(try store.remove(h, source: "manual").count, 1)
        XCTAssertEqual(try store.check(h, presented: .plain(a)).decision.status, .unknown)
        let events = try store.events(forHost: "host.test")
        XCTAssertEqual(events.map(\.event), ["approved", "approved", "replaced", "revoked", "removed"])
        XCTAssertEqual(events[2].oldFingerprint, a.sha256Fingerprint)
        XCTAssertEqual(events[2].fingerprint, b.sha256Fingerprint)
        XCTAssertEqual(events.map(\.port), [2222, 2222, 2222, 2222, 2222])
        XCTAssertEqual(events[0].source, "tofu")
    }

    func testUpstreamImport() throws {
        let d = Self.testdata
        let bytes = Array(try Data(contentsOf: d.appendingPathComponent("known_hosts")))
        let report = try store.importKnownHosts(bytes)
        // 23 valid lines; lines 7–9 hold three names each (split into plain entries); the
        // pattern lists of lines 12–14 are kept whole, as ssh matches them.
        XCTAssertEqual(report.imported, 23 + 2 * 3)
        XCTAssertEqual(report.skipped.map(\.line), [37, 38, 39, 40, 41, 42])
        XCTAssertEqual(report.skipped.first?.reason, "unknown marker '@what' (expected @cert-authority or @revoked)")
        let ed1 = try PublicKeyLine.parse(String(contentsOf: d.appendingPathComponent("ed25519_1.pub"), encoding: .utf8)).key
        let ed4 = try PublicKeyLine.parse(String(contentsOf: d.appendingPathComponent("ed25519_4.pub"), encoding: .utf8)).key
        let ed5 = try PublicKeyLine.parse(String(contentsOf: d.appendingPathComponent("ed25519_5.pub"), encoding: .utf8)).key
        let ed6 = try PublicKeyLine.parse(String(contentsOf: d.appendingPathComponent("ed25519_6.pub"), encoding: .utf8)).key
        XCTAssertEqual(try status("atlas.example.net", 22, ed1), .trusted)
        XCTAssertEqual(try status("atlas.example.net", 22, ed5), .trusted)        // hashed line 18
        XCTAssertEqual(try status("atlas.example.net", 22, ed4), .revoked)        // line 33
        XCTAssertEqual(try status("boreas.example.net", 22, ed6), .trusted)       // hashed line 24
        XCTAssertEqual(try status("2001:db8:5::7", 22, ed6), .trusted)            // hashed line 26
        XCTAssertEqual(try status("boreas.example.net", 22, ed1), .changed)
        XCTAssertEqual(try status("unknown.invalid", 22, ed1), .unknown)
    }

    /// Import → export → ssh-keygen -F finds each name, plain and hashed.
    func testExportRoundTripThroughSSHKeygen() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh-keygen") else { throw XCTSkip("no ssh-keygen") }
        let a = Self.ed25519(1), b = Self.ed25519(2)
        let file = """
            one.test,two.test ssh-ed25519 \(a.base64) a comment
            [three.test]:2222 ssh-ed25519 \(b.base64)
            *.wild.test ssh-ed25519 \(b.base64)
            @revoked one.test ssh-ed25519 \(b.base64)

            """
        _ = try store.importKnownHosts(Array(file.utf8))
        for hashed in [false, true] {
            var counter: UInt8 = 0
            let text = try store.exportKnownHosts(hashed: hashed) { counter += 1; return [UInt8](repeating: counter, count: 20) }
            let path = folder.file(hashed ? "hashed" : "plain")
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let expected: [(String, Int)] = [("one.test", 2), ("two.test", 1), ("[three.test]:2222", 1), ("x.wild.test", 1), ("three.test", 0)]
            for (name, count) in expected {
                let (_, output) = try Tool.output("/usr/bin/ssh-keygen", ["-F", name, "-f", path])
                let found = output.split(separator: "\n").filter { $0.hasPrefix("# Host ") }.count
                XCTAssertEqual(found, count, "\(hashed ? "hashed" : "plain") export, \(name)")
            }
            if hashed {
                XCTAssertFalse(text.split(separator: "\n").contains { $0.hasPrefix("one.test") || $0.hasPrefix("two.test") || $0.hasPrefix("[three") }, text)
                XCTAssertTrue(text.contains("@revoked one.test"), text)  // marker lines are copied, as ssh-keygen -H does
            } else {
                XCTAssertTrue(text.contains("one.test ssh-ed25519 \(a.base64) a comment\n"), text)
            }
        }
    }
}

final class KnownHostsHashedCacheTests: KnownHostsStoreTestCase {
    /// A check writes nothing and remembers no name; hashed entries added by the store or
    /// by another writer (whose `|1|` rows have no `hashed`) are found on the next check.
    func testChecksRememberNothingAndSeeNewHashedEntries() throws {
        let a = KnownHostsStoreTests.ed25519(1), b = KnownHostsStoreTests.ed25519(2), c = KnownHostsStoreTests.ed25519(3)
        let h = HostLookupName(host: "cached.test")
        func field(_ seed: UInt8) -> String { HashedHostName(hashing: h.text, salt: [UInt8](repeating: seed, count: 20)).text }
        _ = try store.importKnownHosts(Array("\(field(1)) ssh-ed25519 \(a.base64)\n".utf8))
        XCTAssertEqual(try store.check(h, presented: .plain(a)).decision.status, .trusted)
        XCTAssertEqual(try db.connection.query("SELECT count(*) FROM sqlite_master WHERE name = 'known_hosts_hash_scans'").first?.int(0), 0)
        XCTAssertEqual(try db.connection.query("SELECT count(*) FROM pragma_table_info('known_hosts') WHERE name = 'learned'").first?.int(0), 0)
        XCTAssertEqual(try store.check(h, presented: .plain(a)).decision.status, .trusted)
        XCTAssertEqual(try store.check(h, presented: .plain(b)).decision.status, .changed)
        // Another hashed entry through the store's import…
        _ = try store.importKnownHosts(Array("@revoked \(field(2)) ssh-ed25519 \(a.base64)\n".utf8))
        XCTAssertEqual(try store.check(h, presented: .plain(a)).decision.status, .revoked)
        // …and one written by another writer with plain SQL, without `hashed` filled in.
        try db.connection.run("""
            INSERT INTO known_hosts (pattern, port, marker, key_type, key_blob, fingerprint, source, first_seen)
            VALUES (?, 0, '', 'ssh-ed25519', ?, ?, 'other', 'x')
            """, [.text(field(3)), .blob(c.blob), .text(c.sha256Fingerprint)])
        XCTAssertEqual(try store.check(h, presented: .plain(c)).decision.status, .trusted)
        // A name that matched nothing still answers "unknown".
        let other = HostLookupName(host: "other.test")
        XCTAssertEqual(try store.check(other, presented: .plain(a)).decision.status, .unknown)
        XCTAssertEqual(try store.check(other, presented: .plain(a)).decision.status, .unknown)
    }
}

final class KnownHostsBulkImportTests: KnownHostsStoreTestCase {
    /// A file over 1 MiB into an empty store takes the bulk path (indexes dropped and built
    /// at the end): the same decisions, duplicates still found, every index back.
    func testBulkImportIntoAnEmptyStore() throws {
        let indexesBefore = try db.connection.query("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name").compactMap { $0.text(0) }
        var lines: [String] = []
        for i in 0..<15_000 {
            lines.append("host\(i).bulk.test ssh-ed25519 \(KnownHostsStoreTests.ed25519(UInt8(i % 251)).base64) comment \(i)")
        }
        lines.append(lines[7])                                                   // a duplicate
        lines.append("\(HashedHostName(hashing: "hashed.bulk.test", salt: [UInt8](repeating: 9, count: 20)).text) ssh-ed25519 \(KnownHostsStoreTests.ed25519(1).base64)")
        lines.append("*.wild.bulk.test ssh-ed25519 \(KnownHostsStoreTests.ed25519(2).base64)")
        lines.append("bad line")
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        XCTAssertGreaterThan(bytes.count, 1 << 20)
        let report = try store.importKnownHosts(bytes)
        XCTAssertEqual(report.imported, 15_002)
        XCTAssertEqual(report.duplicates, 1)
        XCTAssertEqual(report.skipped, [.init(line: 15_004, reason: "unknown key type 'line'")])
        let indexesAfter = try db.connection.query("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name").compactMap { $0.text(0) }
        XCTAssertEqual(indexesAfter, indexesBefore)
        XCTAssertEqual(try store.check(HostLookupName(host: "HOST14999.bulk.test"), presented: .plain(KnownHostsStoreTests.ed25519(UInt8(14999 % 251)))).decision.status, .trusted)
        XCTAssertEqual(try store.check(HostLookupName(host: "hashed.bulk.test"), presented: .plain(KnownHostsStoreTests.ed25519(1))).decision.status, .trusted)
        XCTAssertEqual(try store.check(HostLookupName(host: "x.wild.bulk.test"), presented: .plain(KnownHostsStoreTests.ed25519(2))).decision.status, .trusted)
        XCTAssertEqual(try store.allEvents().filter { $0.event == "imported" }.count, 15_002)
        // The bulk import wrote through the rollback journal and left the store in WAL mode.
        XCTAssertEqual(try db.connection.query("PRAGMA journal_mode").first?.text(0), "wal")
        // Again: the store has rows now, so the indexed path finds every duplicate.
        let again = try store.importKnownHosts(bytes)
        XCTAssertEqual(again.imported, 0)
        XCTAssertEqual(again.duplicates, 15_003)
    }
}

final class KnownHostsApproveRaceTests: XCTestCase {
    /// Hole 9 of issue 9: approve decided, prompted, then wrote without deciding again. A key
    /// another process stores meanwhile must make the write refuse (nothing written).
    func testHole9ApproveDecidesAgainInsideTheWriteTransaction() throws {
        let dir = try TempFolder()
        let path = dir.file("db")
        let mine = KnownHostsStore(database: try HostDatabase.open(path: path))
        let theirs = KnownHostsStore(database: try HostDatabase.open(path: path))
        let a = KnownHostsStoreTests.ed25519(1), b = KnownHostsStoreTests.ed25519(2), c = KnownHostsStoreTests.ed25519(3)
        let h = HostLookupName(host: "race.test")
        XCTAssertEqual(try mine.check(h, presented: .plain(a)).decision.status, .unknown)   // what the prompt showed
        try theirs.approve(h, key: b, source: "other")                                       // meanwhile
        XCTAssertThrowsError(try mine.approve(h, key: a, source: "manual")) { error in
            XCTAssertEqual((error as? HostStoreError)?.kind, .changedMeanwhile)
        }
        XCTAssertEqual(try mine.check(h, presented: .plain(a)).decision.status, .changed)
        XCTAssertEqual(try mine.entries(matching: h).count, 1)
        // Replace: only over exactly the entries that were shown.
        let shown = try mine.check(h, presented: .plain(c)).entries.map(\.id)
        try theirs.approve(h, key: a, source: "other", alongside: [b])
        XCTAssertThrowsError(try mine.replace(h, with: c, expected: shown, source: "manual")) { error in
            XCTAssertEqual((error as? HostStoreError)?.kind, .changedMeanwhile)
        }
        XCTAssertEqual(try mine.check(h, presented: .plain(c)).decision.status, .changed)
        let now = try mine.check(h, presented: .plain(c)).entries.map(\.id)
        XCTAssertEqual(try mine.replace(h, with: c, expected: now, source: "manual").count, 2)
        XCTAssertEqual(try mine.check(h, presented: .plain(c)).decision.status, .trusted)
        // A pattern is never stored from a lookup.
        XCTAssertThrowsError(try mine.approve(HostLookupName(host: "*", port: 2222), key: a, source: "manual"))
    }
}

final class KnownHostsImportDuplicateTests: XCTestCase {
    /// Duplicates within one file are the same name (ASCII case ignored for plain names),
    /// port, marker and key; anything that differs in one of them is written. The same
    /// file small and padded past the bulk threshold (1 MiB) gives the same counts.
    func testDuplicatesWithinAFile() throws {
        let a = KnownHostsStoreTests.ed25519(1), b = KnownHostsStoreTests.ed25519(2)
        let hashed = HashedHostName(hashing: "h.test", salt: [UInt8](repeating: 3, count: 20)).text
        let lines = [
            "one.test ssh-ed25519 \(a.base64)", "ONE.Test ssh-ed25519 \(a.base64)",     // duplicate
            "[one.test]:2222 ssh-ed25519 \(a.base64)",                                   // another port
            "@revoked one.test ssh-ed25519 \(a.base64)",                                 // another marker
            "one.test ssh-ed25519 \(b.base64)",                                          // another key
            "\(hashed) ssh-ed25519 \(a.base64)", "\(hashed) ssh-ed25519 \(a.base64)",  // duplicate
            "*.w.test,!x.w.test ssh-ed25519 \(a.base64)", "*.w.test,!x.w.test ssh-ed25519 \(a.base64)",  // duplicate
            "*.W.test,!x.w.test ssh-ed25519 \(a.base64)",                                // a list is kept as written
            "two.test,one.test ssh-ed25519 \(a.base64)",                                 // two.test new, one.test duplicate
        ]
        for padding in [0, 12_000] {
            let dir = try TempFolder()
            let store = KnownHostsStore(database: try HostDatabase.open(path: dir.file("db")))
            let filler = (0..<padding).map { "pad\($0).test ssh-ed25519 \(KnownHostsStoreTests.ed25519(UInt8($0 % 200)).base64)" }
            let text = (lines + filler + lines).joined(separator: "\n") + "\n"
            XCTAssertEqual(padding == 0 || text.utf8.count >= KnownHostsStore.bulkImportBytes, true)
            let report = try store.importKnownHosts(Array(text.utf8))
            XCTAssertEqual(report.imported, 8 + padding, "padding \(padding)")
            XCTAssertEqual(report.duplicates, 4 + lines.count + 1, "padding \(padding)")
            XCTAssertEqual(try store.check(HostLookupName(host: "one.test"), presented: .plain(a)).decision.status, .revoked)
            XCTAssertEqual(try store.check(HostLookupName(host: "two.test"), presented: .plain(a)).decision.status, .trusted)
            XCTAssertEqual(try store.check(HostLookupName(host: "h.test"), presented: .plain(a)).decision.status, .trusted)
        }
    }

    /// A line that repeats the key data of the line before reuses its decoded key only when
    /// the type word is the same too: the same data under another type is still refused.
    /// Into a store that holds rows already, each written row gets exactly one `imported`
    /// event, in file order, and the events stored before are left as they were.
    func testRepeatedKeyDataAndTheImportedEvents() throws {
        let a = KnownHostsStoreTests.ed25519(1), b = KnownHostsStoreTests.ed25519(2)
        let dir = try TempFolder()
        let store = KnownHostsStore(database: try HostDatabase.open(path: dir.file("db")))
        XCTAssertEqual(try store.importKnownHosts(Array("old.test ssh-ed25519 \(b.base64)\n".utf8), source: "first").imported, 1)
        let text = """
            x.test ssh-ed25519 \(a.base64)
            x.test ssh-rsa \(a.base64)
            y.test ssh-ed25519 \(a.base64)
            old.test ssh-ed25519 \(b.base64)
            z.test ssh-ed25519 \(b.base64)

            """
        let report = try store.importKnownHosts(Array(text.utf8), source: "second")
        XCTAssertEqual(report.imported, 3)
        XCTAssertEqual(report.duplicates, 1)
        XCTAssertEqual(report.skipped, [.init(line: 2, reason: "key type mismatch: the line says ssh-rsa but the key is ssh-ed25519")])
        for (host, key) in [("x.test", a), ("y.test", a), ("z.test", b)] {
            XCTAssertEqual(try store.check(HostLookupName(host: host), presented: .plain(key)).decision.status, .trusted, host)
            let events = try store.events(forHost: host)
            XCTAssertEqual(events.map(\.event), ["imported"], host)
            XCTAssertEqual(events.map(\.fingerprint), [key.sha256Fingerprint], host)
            XCTAssertEqual(events.map(\.source), ["second"], host)
        }
        XCTAssertEqual(try store.events(forHost: "old.test").map(\.source), ["first"])
    }

    /// Rows whose different identities share a 64-bit hash are all kept as candidates.
    func testIdentitiesSharingAHashAreAllCandidates() {
        var w = KnownHostsStore.WrittenIdentities(capacity: 4)
        XCTAssertEqual(w.candidates(7), [])
        w.insert(7, id: 10, plain: true)
        w.insert(7, id: 11, plain: false)
        w.insert(8, id: 12, plain: false)
        XCTAssertEqual(w.candidates(7), [21, 22])
        XCTAssertEqual(w.candidates(8), [24])
    }
}
