// Host-key rotation's rules (HostKeyRotation) as a table, in-process over a real SQLite
// file: which entries ssh is given for a connection (`start`: the exclusions of issue 32 —
// a marker line, a wildcard, bare-name trust, an unknown host, another origin, rotation
// turned off), what the store takes from ssh's edits (`fold`: a key trusted under another
// name, a store changed meanwhile), and the write itself (form kept, events with source
// `rotation`).
import Foundation
import XCTest
@testable import HostStore
import KeyFormats
import TestSupport

final class HostKeyRotationTests: KnownHostsStoreTestCase {
    let a = KnownHostsStoreTests.ed25519(1), b = KnownHostsStoreTests.ed25519(2), c = KnownHostsStoreTests.ed25519(3)
    let ported = HostLookupName(host: "h.test", port: 2222)
    let salt = [UInt8](repeating: 9, count: 20)

    enum Expected: Equatable {
        case learn(Int)
        case not(HostKeyRotation.NotLearning)
    }

    func summary(_ start: HostKeyRotation.Start) -> Expected {
        switch start {
        case .learn(let rows): .learn(rows.count)
        case .notLearning(let why): .not(why)
        }
    }

    func testWhenSSHIsGivenTheFile() throws {
        let hashed = HashedHostName(hashing: "[h.test]:2222", salt: salt).text
        // (case, known_hosts file imported, bundle entries, turned off, expected)
        let cases: [(String, String, Bool, Expected)] = [
            ("a plain key for [host]:port", "[h.test]:2222 ssh-ed25519 \(a.base64)\n", false, .learn(1)),
            ("two keys for the name", "[h.test]:2222 ssh-ed25519 \(a.base64)\n[h.test]:2222 ssh-ed25519 \(b.base64)\n", false, .learn(2)),
            ("a hashed name", "\(hashed) ssh-ed25519 \(a.base64)\n", false, .learn(1)),
            ("rotation turned off", "[h.test]:2222 ssh-ed25519 \(a.base64)\n", true, .not(.turnedOff)),
            ("an unknown host (first connection)", "other.test ssh-ed25519 \(a.base64)\n", false, .not(.notTrustedForTheName)),
            ("trust only through the bare name", "h.test ssh-ed25519 \(a.base64)\n", false, .not(.notTrustedForTheName)),
            ("an @revoked line for the name", "[h.test]:2222 ssh-ed25519 \(a.base64)\n@revoked [h.test]:2222 ssh-ed25519 \(c.base64)\n",
             false, .not(.marker(.revoked))),
            ("an @revoked wildcard matching the host", "[h.test]:2222 ssh-ed25519 \(a.base64)\n@revoked * ssh-ed25519 \(c.base64)\n",
             false, .not(.marker(.revoked))),
            ("an @cert-authority line matching the host", "[h.test]:2222 ssh-ed25519 \(a.base64)\n@cert-authority [h.test]:*,x.test ssh-ed25519 \(c.base64)\n",
             false, .not(.marker(.certAuthority))),
            ("trust through @cert-authority alone", "@cert-authority [h.test]:2222 ssh-ed25519 \(c.base64)\n", false,
             .not(.marker(.certAuthority))),
            ("a wildcard entry matching the host", "[h.test]:2222 ssh-ed25519 \(a.base64)\n[h.*]:2222 ssh-ed25519 \(b.base64)\n", false, .not(.pattern)),
        ]
        for (name, file, off, expected) in cases {
            try resetStore()
            _ = try store.importKnownHosts(Array(file.utf8))
            if off { XCTAssertTrue(try store.setRotation(ported, on: false), name) }
            XCTAssertEqual(summary(try store.rotationStart(ported)), expected, name)
        }
        // A host certificate stored as a plain entry for the name (ssh matches it only through
        // a certificate authority): nothing to prove possession of.
        try resetStore()
        let cert = try String(contentsOf: PackageRoot.file("testkeys/sshkey/ed25519_1-cert.pub"), encoding: .utf8)
            .split(separator: " ").prefix(2).joined(separator: " ")
        let certImport = try store.importKnownHosts(Array("[h.test]:2222 ssh-ed25519 \(a.base64)\n[h.test]:2222 \(cert)\n".utf8))
        XCTAssertEqual(certImport.imported, 2, "\(certImport)")
        XCTAssertEqual(summary(try store.rotationStart(ported)), .not(.certificate))
        // Trust another origin holds (a team bundle's entry) is that origin's to restate.
        try resetStore()
        try insert("h.test", port: 2222, a, source: "bundle:team")
        XCTAssertEqual(summary(try store.rotationStart(ported)), .not(.anotherOrigin(.bundle("team"))))
        // A rotation's own entries may be followed again.
        try resetStore()
        try insert("h.test", port: 2222, a, source: HostKeyRotation.source)
        XCTAssertEqual(summary(try store.rotationStart(ported)), .learn(1))
    }

    func testTheSwitchIsPerNameAndPort() throws {
        _ = try store.importKnownHosts(Array("[h.test]:2222 ssh-ed25519 \(a.base64)\nh.test ssh-ed25519 \(a.base64)\n".utf8))
        XCTAssertTrue(try store.setRotation(HostLookupName(host: "H.TEST", port: 2222), on: false))
        XCTAssertFalse(try store.setRotation(ported, on: false), "already off")
        XCTAssertEqual(summary(try store.rotationStart(ported)), .not(.turnedOff))
        XCTAssertEqual(summary(try store.rotationStart(HostLookupName(host: "h.test"))), .learn(1), "port 22 is another switch")
        XCTAssertTrue(try store.setRotation(ported, on: true))
        XCTAssertEqual(summary(try store.rotationStart(ported)), .learn(1))
    }

    func testWhatTheStoreTakesFromSSH() throws {
        _ = try store.importKnownHosts(Array("[h.test]:2222 ssh-ed25519 \(a.base64)\n[h.test]:2222 ssh-ed25519 \(b.base64)\n".utf8))
        guard case .learn(let rows) = try store.rotationStart(ported) else { return XCTFail("not learning") }
        let now = HostKeyRotation.Start.learn(rows)
        let rowA = rows[0], rowB = rows[1]
        let cases: [(String, [PublicKey], Set<[UInt8]>, HostKeyRotation.Start, HostKeyRotation.Outcome)] = [
            ("nothing changed", [a, b], [], now, .unchanged),
            ("the same keys in another order", [b, a], [], now, .unchanged),
            ("a key proven", [a, b, c], [], now, .learned(added: [c], retired: [])),
            ("a key no longer offered", [b], [], now, .learned(added: [], retired: [rowA])),
            ("one in, one out", [c, a], [], now, .learned(added: [c], retired: [rowB])),
            ("a new key trusted under another name", [a, b, c], [c.blob], now, .notLearned(.trustedUnderAnotherName(fingerprint: c.sha256Fingerprint))),
            ("a retired key trusted under another name", [b], [a.blob], now, .notLearned(.trustedUnderAnotherName(fingerprint: a.sha256Fingerprint))),
            ("a kept key trusted under another name", [b, c], [b.blob], now, .notLearned(.trustedUnderAnotherName(fingerprint: b.sha256Fingerprint))),
            ("the store changed meanwhile", [a, b, c], [], .learn([rowA]), .notLearned(.changedMeanwhile)),
            ("rotation turned off meanwhile", [a, b, c], [], .notLearning(.turnedOff), .notLearned(.changedMeanwhile)),
            ("no key left", [], [], now, .notLearned(.nothingLeft)),
        ]
        for (name, proven, others, current, expected) in cases {
            XCTAssertEqual(HostKeyRotation.fold(baseline: rows, now: current, proven: proven, otherNames: others), expected, name)
        }
    }

    func testLearningWritesInTheEntrysFormWithRotationEvents() throws {
        // Plain [host]:port: the RSA-then-Ed25519 rotation in two logins.
        _ = try store.importKnownHosts(Array("[h.test]:2222 ssh-ed25519 \(a.base64)\n".utf8))
        guard case .learn(let first) = try store.rotationStart(ported) else { return XCTFail("not learning") }
        XCTAssertEqual(try store.learnRotation(ported, baseline: first, proven: [a, b]) { self.salt }, .learned(added: [b], retired: []))
        guard case .learn(let second) = try store.rotationStart(ported) else { return XCTFail("not learning") }
        XCTAssertEqual(Set(second.map(\.keyBlob)), [a.blob, b.blob])
        XCTAssertEqual(second.last?.hostField, "[h.test]:2222")
        XCTAssertEqual(second.last?.source, "rotation")
        let rotated = try store.learnRotation(ported, baseline: second, proven: [b], salt: { self.salt })
        guard case .learned(_, let retired) = rotated else { return XCTFail("not learned") }
        XCTAssertEqual(retired.map(\.keyBlob), [a.blob])
        XCTAssertEqual(try store.check(ported, presented: .plain(b)).decision.status, .trusted)
        XCTAssertEqual(try store.entries(matching: ported).map(\.keyBlob), [b.blob], "retired, not revoked")
        let events = try store.allEvents().filter { $0.source == "rotation" }
        XCTAssertEqual(events.map(\.event), ["learned", "retired"])
        // A retired key is named as a removed one is: by its old fingerprint.
        XCTAssertEqual(events.map { $0.fingerprint ?? $0.oldFingerprint }, [b.sha256Fingerprint, a.sha256Fingerprint])

        // Hashed: the learned key is hashed too, and its event names the hash, not the host.
        try resetStore()
        let hashed = HashedHostName(hashing: ported.text, salt: salt).text
        _ = try store.importKnownHosts(Array("\(hashed) ssh-ed25519 \(a.base64)\n".utf8))
        guard case .learn(let rows) = try store.rotationStart(ported) else { return XCTFail("not learning") }
        let newSalt = [UInt8](repeating: 4, count: 20)
        XCTAssertEqual(try store.learnRotation(ported, baseline: rows, proven: [a, c]) { newSalt }, .learned(added: [c], retired: []))
        let learned = try store.entries(matching: ported)
        XCTAssertEqual(learned.count, 2)
        XCTAssertTrue(learned.allSatisfy { $0.kind == .hashed })
        XCTAssertEqual(learned.last?.pattern, HashedHostName(hashing: ported.text, salt: newSalt).text)
        XCTAssertFalse(try store.allEvents().contains { $0.host.contains("h.test") }, "no event names the hashed host")

        // A key also trusted under another name: nothing is written.
        try resetStore()
        _ = try store.importKnownHosts(Array("[h.test]:2222 ssh-ed25519 \(a.base64)\nalias.test ssh-ed25519 \(c.base64)\n".utf8))
        guard case .learn(let base) = try store.rotationStart(ported) else { return XCTFail("not learning") }
        XCTAssertEqual(try store.learnRotation(ported, baseline: base, proven: [a, c]) { self.salt },
                       .notLearned(.trustedUnderAnotherName(fingerprint: c.sha256Fingerprint)))
        XCTAssertEqual(try store.entries(matching: ported).count, 1)
    }

    func testProvenKeysAreReadAsSSHMatchesThem() {
        let hashed = HashedHostName(hashing: ported.text, salt: salt).text
        let text = """
            [h.test]:2222 ssh-ed25519 \(a.base64)
            \(hashed) ssh-ed25519 \(b.base64) learned
            h.test ssh-ed25519 \(c.base64)
            @revoked [h.test]:2222 ssh-ed25519 \(c.base64)
            not a line

            """
        XCTAssertEqual(HostKeyRotation.provenKeys(text, lookup: ported), [a, b])
    }

    // MARK: Helpers

    func resetStore() throws {
        for table in ["known_hosts", "host_key_events", "known_hosts_rotation_off", "known_hosts_hash_pack"] {
            try db.connection.execute("DELETE FROM \(table)")
        }
    }

    func insert(_ host: String, port: Int, _ key: PublicKey, source: String) throws {
        try db.connection.run(KnownHostsSQL.insertPlain, [.text(host), .int(Int64(port)), .text(""), .text(key.type), .blob(key.blob),
                                                          .text(key.sha256Fingerprint), .text(source), .text("2026-01-01T00:00:00Z"), .null])
    }
}
