// HashedNamePack (precomputed HMAC-SHA1 midstates) against plain HMAC-SHA1 (RFC 2104) for
// random salts and names of every length around SHA-1's block boundaries.
import XCTest
@testable import KeyFormats

final class HashedNamePackTests: XCTestCase {
    /// A deterministic generator, so a failure can be reproduced.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 11
        }
        mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: next()) } }
        mutating func name(_ n: Int) -> String {
            let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789.-:[]")
            return String((0..<n).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
        }
    }

    /// Every name length from 0 to 200 (one, two and four SHA-1 blocks after the pad), each
    /// with a fresh random salt: the packed record matches exactly the name HMAC says.
    func testRecordsAgreeWithHMAC() {
        var g = Generator(state: 42)
        for length in 0...200 {
            let name = g.name(length)
            let salt = g.bytes(20)
            let hashed = HashedHostName(hashing: name, salt: salt)
            XCTAssertEqual(hashed.mac, Digest.hmac(.sha1, key: salt, message: Array(name.utf8)))
            var pack: [UInt8] = []
            HashedNamePack.append(hashed, id: Int64(length) - 100, to: &pack)
            XCTAssertEqual(pack.count, HashedNamePack.recordLength)
            let hits = pack.withUnsafeBytes { HashedNamePack.matches(name: name, in: $0) }
            XCTAssertEqual(hits, [Int64(length) - 100], "length \(length)")
            let miss = pack.withUnsafeBytes { HashedNamePack.matches(name: name + "x", in: $0) }
            XCTAssertEqual(miss, [], "length \(length)")
            // A record for a different salt with the same mac does not match.
            let other = HashedHostName(salt: g.bytes(20), mac: hashed.mac)
            var wrong: [UInt8] = []
            HashedNamePack.append(other, id: 1, to: &wrong)
            XCTAssertEqual(wrong.withUnsafeBytes { HashedNamePack.matches(name: name, in: $0) }, [])
        }
    }

    /// The published vectors (KnownHostsHashTests) through the pack.
    func testVectors() throws {
        for (i, v) in KnownHostsHashTests.vectors.enumerated() {
            var pack: [UInt8] = []
            HashedNamePack.append(try XCTUnwrap(HashedHostName(field: v.field)), id: Int64(i), to: &pack)
            XCTAssertEqual(pack.withUnsafeBytes { HashedNamePack.matches(name: v.name, in: $0) }, [Int64(i)])
            XCTAssertEqual(pack.withUnsafeBytes { HashedNamePack.matches(name: v.name.uppercased(), in: $0) }, v.name.uppercased() == v.name ? [Int64(i)] : [])
        }
    }

    /// A large pack scanned on one and on two threads: the same hits, in pack order, with
    /// hits in both halves and at both ends.
    func testParallelScanFindsTheSameEntries() {
        var g = Generator(state: 7)
        let names = (0..<10).map { g.name(10 + $0 * 9) }
        var pack: [UInt8] = []
        var expected: [String: [Int64]] = [:]
        let count = 10_001
        for i in 0..<count {
            let name = names[Int(g.next() % UInt64(names.count))]
            let hashed = HashedHostName(hashing: name, salt: g.bytes(20))
            HashedNamePack.append(hashed, id: Int64(i) * 3 + 1, to: &pack)
            expected[name, default: []].append(Int64(i) * 3 + 1)
        }
        for name in names {
            for threads in [1, 2, 3] {
                let hits = pack.withUnsafeBytes { HashedNamePack.matches(name: name, in: $0, threads: threads) }
                XCTAssertEqual(hits, expected[name] ?? [], "\(name), \(threads) threads")
            }
        }
        XCTAssertEqual(expected.values.reduce(0) { $0 + $1.count }, count)
        XCTAssertEqual(pack.withUnsafeBytes { HashedNamePack.matches(name: "absent.example", in: $0, threads: 2) }, [])
        // A trailing partial record is ignored, never read past.
        pack += [1, 2, 3]
        XCTAssertEqual(pack.withUnsafeBytes { HashedNamePack.matches(name: names[0], in: $0, threads: 2) }, expected[names[0]] ?? [])
    }
}
