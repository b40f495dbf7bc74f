// No quadratic work on input an attacker sizes (issue 10): Punycode is not run on a label
// longer than a DNS label, and the Tailscale importer's deduplication (host keys,
// addresses, --rename-clashes) is Set/Dictionary based. No test here measures time (a busy
// machine makes any clock bound fail for no fault): each shows the result that only the
// bounded path gives, or counts the work done (SQLite instructions, entries read) at two
// sizes, and benchmarks/ measures how the time grows with the input.
import Foundation
@testable import HostStore
import ImportFormats
import KeyFormats
import XCTest

final class QuadraticInputTests: XCTestCase {
    func testAHugeLabelIsNotPunycoded() {
        // 300,000 code points, 20,000 of them distinct: encoding would be 20,000 passes over it.
        var huge = String.UnicodeScalarView()
        for i in 0..<300_000 { huge.append(Unicode.Scalar(UInt32(0x4E00 + i % 20_000))!) }
        let label = String(huge)
        // Unchanged: a label that was encoded would begin with "xn--".
        XCTAssertEqual(Punycode.asciiLabel(label), label)
        let name = label + ".tail4f21c8.ts.net"
        XCTAssertEqual(Punycode.asciiName(name), name)
        let encoded = "xn--" + String(repeating: "a", count: 1_000_000) + "-" + String(repeating: "9", count: 200_000)
        XCTAssertEqual(Punycode.unicodeLabel(encoded), encoded)
        // At the limit the label is still encoded.
        let fits = String(repeating: "ü", count: 59)
        XCTAssertTrue(Punycode.asciiLabel(fits).hasPrefix("xn--"))
        XCTAssertEqual(Punycode.asciiLabel(fits + "ü"), fits + "ü")
    }

    private func node(_ id: String, hostName: String, dnsName: String = "", addresses: [String], keys: [String] = []) -> TailscaleNode {
        var n = TailscaleNode()
        n.nodeID = id
        n.hostName = hostName
        n.dnsName = dnsName
        n.addresses = addresses
        n.sshHostKeys = keys
        n.online = true
        return n
    }

    private static func ed25519(_ i: Int) -> String {
        var blob: [UInt8] = [0, 0, 0, 11] + Array("ssh-ed25519".utf8) + [0, 0, 0, 32]
        var seed = UInt64(i) &* 0x9E37_79B9_7F4A_7C15
        for _ in 0..<32 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            blob.append(UInt8(truncatingIfNeeded: seed >> 56))
        }
        return "ssh-ed25519 " + Data(blob).base64EncodedString()
    }

    func testManyClashingNamesAreRenamedInLinearTime() throws {
        let db = try TemporaryDatabase()
        let count = 20_000
        let nodes = (0..<count).map { i in
            node("n\(i)", hostName: "web01", addresses: ["100.\(64 + i / 65_536).\(i / 256 % 256).\(i % 256)"])
        }
        var options = TailscaleImportOptions()
        options.renameClashes = true
        options.trustHostKeys = false
        let report = try db.importAll(TailscaleDocument(format: .status, backendState: "Running", nodes: nodes), options)
        XCTAssertEqual(report.count(.added), count)
        XCTAssertEqual(try db.count("SELECT count(*) FROM hosts"), Int64(count))
        XCTAssertEqual(try db.count("SELECT count(DISTINCT lower(name)) FROM hosts"), Int64(count))
        XCTAssertEqual(try db.strings("SELECT name FROM hosts WHERE source_id IN ('n0', 'n1', 'n19999') ORDER BY id"),
                       ["web01", "web01-2", "web01-\(count)"])
    }

    func testManyAddressesAndHostKeysOfOneDeviceAreDeduplicatedInLinearTime() throws {
        let db = try TemporaryDatabase()
        // 30,000 addresses, each given twice, and one key: one known_hosts entry per address.
        let addresses = (0..<30_000).map { i in "100.\(64 + i / 65_536).\(i / 256 % 256).\(i % 256)" }
        let wide = node("nWide", hostName: "wide", addresses: addresses + addresses.reversed(), keys: [Self.ed25519(0)])
        // 20,000 distinct keys, each given twice, under one name.
        let keys = (1...20_000).map(Self.ed25519)
        let many = node("nKeys", hostName: "keys", dnsName: "keys.tail4f21c8.ts.net", addresses: [], keys: keys + keys)
        let report = try db.importAll(TailscaleDocument(format: .status, backendState: "Running", nodes: [wide, many]))
        XCTAssertEqual(report.count(.added), 2, "\(report.hosts.map { ($0.name, $0.reason) })")
        XCTAssertEqual(report.keyProblems.count, 0, "\(report.keyProblems.prefix(2))")
        XCTAssertEqual(try db.count("SELECT count(*) FROM known_hosts WHERE pattern LIKE '100.%'"), 30_000)
        let sample = try db.strings("SELECT pattern || ' ' || key_type FROM known_hosts WHERE pattern NOT LIKE '100.%' LIMIT 3")
        XCTAssertEqual(try db.count("SELECT count(*) FROM known_hosts WHERE pattern = 'keys.tail4f21c8.ts.net'"), 20_000,
                       "\(sample) \(report.hosts.map { ($0.name, $0.hostname, $0.hostKeys) })")
    }

    /// SQLite instructions for importing one device that lists `count` Tailscale addresses,
    /// each twice, with one key, into an empty store (bulk mode: the name index is dropped
    /// until the end).
    private func instructionsForAddresses(_ count: Int) throws -> Int {
        let db = try TemporaryDatabase()
        let addresses = (0..<count).map { i in "100.\(64 + i / 65_536).\(i / 256 % 256).\(i % 256)" }
        let wide = node("nWide", hostName: "wide", addresses: addresses + addresses, keys: [Self.ed25519(0)])
        let (report, instructions) = try db.connection.countingInstructions {
            try db.importAll(TailscaleDocument(format: .status, backendState: "Running", nodes: [wide]))
        }
        XCTAssertEqual(report.entriesTrusted, count)
        XCTAssertEqual(try db.count("SELECT count(*) FROM known_hosts"), Int64(count))
        return instructions
    }

    func testTwiceTheAddressesCostTwiceTheSQLiteWork() throws {
        // Issue 22: each address given twice counts as a name "shared" by two devices, and the
        // importer looked each written entry up again by name, a table scan while the index
        // was dropped: 6,000 → 12,000 addresses cost 4.0× the instructions (54.7 M → 217.3 M). Now 2.0× (0.5 M → 1.0 M).
        let small = try instructionsForAddresses(6_000)
        let large = try instructionsForAddresses(12_000)
        print("SQLite instructions: 6,000 addresses \(small), 12,000 addresses \(large)")
        XCTAssertLessThanOrEqual(Double(large) / Double(small), 2.5, "\(small) → \(large) SQLite instructions")
    }

    /// Plans one device with `count` new Ed25519 keys for a name that holds `count` other
    /// Ed25519 keys from an earlier Tailscale import (a rotation of every key).
    private func planRotation(_ count: Int) -> (work: Int, namedIDs: Int, rotated: Int) {
        func key(_ i: Int) -> PublicKey {
            var seed = UInt64(i) &* 0x9E37_79B9_7F4A_7C15
            return PublicKey(.ed25519(publicKey: (0..<32).map { _ in
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: seed >> 56)
            }))
        }
        let fqdn = "many.tail1.ts.net"
        let stored = (0..<count).map { i -> KnownHostRow in
            let k = key(i)
            return KnownHostRow(plannedID: Int64(i + 1), pattern: fqdn, key: k, fingerprint: k.sha256Fingerprint, source: TailscaleImporter.source)
        }
        var device = TailscaleNode()
        device.nodeID = "nMany"
        device.dnsName = fqdn
        device.hostName = "many"
        device.online = true
        device.sshHostKeys = (count..<(2 * count)).map { i in let k = key(i); return "\(k.type) \(k.base64)" }
        var planner = TailscaleImportPlanner(snapshot: TailscaleImportSnapshot(), options: TailscaleImportOptions(),
                                             tailnet: TailscaleTailnet(magicDNSSuffix: "tail1.ts.net"), nodes: [device])
        let plan = planner.plan(device, entries: [fqdn: stored])
        var namedIDs = 0, rotated = 0
        for step in plan.keys {
            if case .rotated(let ids, _) = step.decision { namedIDs += ids.count; rotated += 1 }
        }
        return (planner.keyDecisionWork, namedIDs, rotated)
    }

    func testRotatingManyKeysOfANameIsDecidedWithLinearWork() {
        // Issue 22: every key was decided against every entry of the name, and each rotated
        // key named every old entry of its type again (2,000 keys: 4,000,000 ids to delete).
        let small = planRotation(2_000)
        let large = planRotation(4_000)
        XCTAssertEqual(small.rotated, 2_000)
        XCTAssertEqual(large.rotated, 4_000)
        // The old entries are named once, by the first key of their type.
        XCTAssertEqual(small.namedIDs, 2_000)
        XCTAssertEqual(large.namedIDs, 4_000)
        // Entries read once per name plus one lookup per key.
        XCTAssertEqual(small.work, 4_000)
        XCTAssertLessThanOrEqual(Double(large.work) / Double(small.work), 2.5)
    }

    /// SQLite work for `lines` known_hosts lines in the compact layout (schema v7): half
    /// hashed names, half plain, every fourth with its own key. Imported into an empty store
    /// (the bulk path: indexes built at the end), then `lines` more into that store (the
    /// indexed duplicate test), then the whole history read (imported events derived from
    /// the rows); and the store's size in pages.
    private func knownHostsWork(_ lines: Int) throws -> (empty: Int, more: Int, history: Int, pages: Int64) {
        let db = try TemporaryDatabase()
        let store = KnownHostsStore(database: db.database)
        func file(_ range: Range<Int>) -> [UInt8] {
            var text = ""
            for i in range {
                let key = KnownHostsStoreTests.ed25519(UInt8(truncatingIfNeeded: i / 4))
                let name = "h\(i).quadratic.test"
                let field = i % 2 == 0 ? name : HashedHostName(hashing: name, salt: (0..<20).map { UInt8(truncatingIfNeeded: $0 &+ i) }).text
                text += "\(field) ssh-ed25519 \(key.base64)\n"
            }
            return Array(text.utf8)
        }
        let first = file(0..<lines), second = file(lines..<(2 * lines))
        XCTAssertGreaterThanOrEqual(first.count, KnownHostsStore.bulkImportBytes)
        let (r1, empty) = try db.connection.countingInstructions { try store.importKnownHosts(first) }
        let pages = try db.count("PRAGMA page_count")
        let (r2, more) = try db.connection.countingInstructions { try store.importKnownHosts(second) }
        XCTAssertEqual(r1.imported + r2.imported, 2 * lines)
        let (events, history) = try db.connection.countingInstructions { try store.allEvents() }
        XCTAssertEqual(events.count, 2 * lines)
        return (empty, more, history, pages)
    }

    func testTwiceTheKnownHostsLinesCostTwiceTheSQLiteWorkAndSpace() throws {
        // Issue 35: the compact layout keeps import, history and size linear. Building the
        // indexes at the end is a sort (n log n), hence 2.3 rather than 2.
        let small = try knownHostsWork(12_000)
        let large = try knownHostsWork(24_000)
        print("known-hosts SQLite instructions, 12,000 → 24,000 lines: import \(small.empty) → \(large.empty), "
              + "import into the store \(small.more) → \(large.more), history \(small.history) → \(large.history); pages \(small.pages) → \(large.pages)")
        XCTAssertLessThanOrEqual(Double(large.empty) / Double(small.empty), 2.3, "import into an empty store: \(small.empty) → \(large.empty)")
        XCTAssertLessThanOrEqual(Double(large.more) / Double(small.more), 2.3, "import into a store: \(small.more) → \(large.more)")
        XCTAssertLessThanOrEqual(Double(large.history) / Double(small.history), 2.3, "history: \(small.history) → \(large.history)")
        XCTAssertLessThanOrEqual(Double(large.pages) / Double(small.pages), 2.2, "size: \(small.pages) → \(large.pages) pages")
    }
}
