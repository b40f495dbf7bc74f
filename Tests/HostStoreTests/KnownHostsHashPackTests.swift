// The packed hashed entries (known_hosts_hash_pack): built by the import, used by a first
// check, never trusted beyond what the rows themselves say.
import Foundation
import XCTest
@testable import HostStore
import KeyFormats

final class KnownHostsHashPackTests: KnownHostsStoreTestCase {
    func ids(_ host: String) throws -> [Int64] {
        try store.entries(matching: HostLookupName(host: host)).map(\.id)
    }

    func state() throws -> (hashed: Int64?, pack: Int64?) {
        let row = try db.connection.query("SELECT hashed_generation, pack_generation FROM known_hosts_state").first
        return (row?.int(0), row?.int(1))
    }

    /// 9,000 hashed entries for 30 names (three pack rows, hits in each) plus plain ones:
    /// the pack finds exactly the rows whose hash is the name's, in both halves of a chunk.
    func testPackFindsEveryHashedEntry() throws {
        let key = KnownHostsStoreTests.ed25519(1)
        var lines: [String] = []
        var expected: [String: [Int64]] = [:]
        for i in 0..<9_000 {
            let name = "h\(i % 30).pack.test"
            var salt = [UInt8](repeating: 0, count: 20)
            withUnsafeBytes(of: UInt32(i).bigEndian) { for (k, b) in $0.enumerated() { salt[k] = b } }
            lines.append("\(HashedHostName(hashing: name, salt: salt).text) ssh-ed25519 \(key.base64)")
            expected[name, default: []].append(Int64(i + 1))
        }
        lines.append("plain.pack.test ssh-ed25519 \(key.base64)")
        XCTAssertEqual(try store.importKnownHosts(Array((lines.joined(separator: "\n") + "\n").utf8)).imported, 9_001)
        XCTAssertEqual(try db.connection.query("SELECT count(*), sum(length(records)) FROM known_hosts_hash_pack").first?.values,
                       [.int(3), .int(Int64(9_000 * HashedNamePack.recordLength))])
        let s = try state()
        XCTAssertEqual(s.pack, s.hashed)
        for name in ["h0.pack.test", "h17.pack.test", "h29.pack.test", "H5.PACK.test"] {
            XCTAssertEqual(try ids(name), expected[name.lowercased()], name)
            XCTAssertEqual(try ids(name).count, 300)
        }
        XCTAssertEqual(try ids("h30.pack.test"), [])
        XCTAssertEqual(try ids("plain.pack.test"), [9_001])
        // Through a full check (which also remembers the answer) and again from memory.
        let lookup = HostLookupName(host: "h3.pack.test")
        XCTAssertEqual(try store.check(lookup, presented: .plain(key)).matched.map(\.id), expected["h3.pack.test"])
        XCTAssertEqual(try store.check(lookup, presented: .plain(key)).matched.map(\.id), expected["h3.pack.test"])
    }

    /// A pack entry whose row was deleted, and whose row id now belongs to another entry,
    /// does not make that entry match: hits are re-checked against the row.
    func testDeletedAndReusedRowIdsDoNotMatch() throws {
        let a = KnownHostsStoreTests.ed25519(1), b = KnownHostsStoreTests.ed25519(2)
        let first = HashedHostName(hashing: "gone.pack.test", salt: [UInt8](repeating: 1, count: 20))
        _ = try store.importKnownHosts(Array("plain.pack.test ssh-ed25519 \(a.base64)\n\(first.text) ssh-ed25519 \(a.base64)\n".utf8))
        XCTAssertEqual(try ids("gone.pack.test"), [2])
        XCTAssertEqual(try store.remove(HostLookupName(host: "gone.pack.test"), source: "test").map(\.id), [2])
        XCTAssertEqual(try ids("gone.pack.test"), [])
        // Row id 2 is never handed out again (schema v7, AUTOINCREMENT): the next row, here
        // a hashed one for another name (written by another writer), is above the pack and
        // tested on every check; then a plain one.
        let other = HashedHostName(hashing: "other.pack.test", salt: [UInt8](repeating: 2, count: 20))
        try db.connection.run("""
            INSERT INTO known_hosts (pattern, port, marker, key_type, key_blob, fingerprint, source, first_seen)
            VALUES (?, 0, '', 'ssh-ed25519', ?, ?, 'other', 'x')
            """, [.text(other.text), .blob(b.blob), .text(b.sha256Fingerprint)])
        XCTAssertEqual(try db.connection.query("SELECT max(id) FROM known_hosts").first?.int(0), 3)
        XCTAssertEqual(try ids("gone.pack.test"), [])
        XCTAssertEqual(try ids("other.pack.test"), [3])
        try db.connection.run("DELETE FROM known_hosts WHERE id = 3")
        XCTAssertEqual(try store.approve(HostLookupName(host: "new.pack.test"), key: b, source: "test"), true)
        XCTAssertEqual(try ids("gone.pack.test"), [])
        XCTAssertEqual(try ids("other.pack.test"), [])
        XCTAssertEqual(try ids("new.pack.test"), [4])
    }

    /// A pack that is not current (the generation moved without a rebuild, or a store made
    /// before the pack existed) is not used: the rows are scanned as before.
    func testStalePackIsNotUsed() throws {
        let a = KnownHostsStoreTests.ed25519(1)
        let h1 = HashedHostName(hashing: "one.pack.test", salt: [UInt8](repeating: 1, count: 20))
        _ = try store.importKnownHosts(Array("\(h1.text) ssh-ed25519 \(a.base64)\n".utf8))
        XCTAssertEqual(try ids("one.pack.test"), [1])
        // Another writer adds a hashed row and bumps the generation
        // (a rule-abiding writer that does not know the pack).
        let h2 = HashedHostName(hashing: "one.pack.test", salt: [UInt8](repeating: 2, count: 20))
        try db.connection.run("""
            INSERT INTO known_hosts (pattern, port, marker, key_type, key_blob, fingerprint, source, first_seen)
            VALUES (?, 0, '', 'ssh-ed25519', ?, ?, 'other', 'x')
            """, [.text(h2.text), .blob(a.blob), .text(a.sha256Fingerprint)])
        try db.connection.run("UPDATE known_hosts_state SET hashed_generation = hashed_generation + 1")
        XCTAssertEqual(try ids("one.pack.test"), [1, 2])
        // The next import rebuilds it, and it is used again.
        _ = try store.importKnownHosts(Array("\(HashedHostName(hashing: "two.pack.test", salt: [UInt8](repeating: 3, count: 20)).text) ssh-ed25519 \(a.base64)\n".utf8))
        let s = try state()
        XCTAssertEqual(s.pack, s.hashed)
        XCTAssertEqual(try db.connection.query("SELECT sum(length(records)) FROM known_hosts_hash_pack").first?.int(0), Int64(3 * HashedNamePack.recordLength))
        XCTAssertEqual(try ids("one.pack.test"), [1, 2])
        XCTAssertEqual(try ids("two.pack.test"), [3])
    }
}
