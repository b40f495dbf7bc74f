// Reading both Tailscale formats into devices, on the fixtures in testdata/tailscale and
// on inline inputs.
@testable import ImportFormats
import XCTest
import TestSupport

final class TailscaleDocumentReaderTests: XCTestCase {
    func testStatusSmall() throws {
        let doc = try TailscaleFixtures.document(TailscaleFixtures.own("status-four-peers.json"))
        XCTAssertEqual(doc.format, .status)
        XCTAssertEqual(doc.backendState, "Running")
        XCTAssertEqual(doc.nodes.map(\.dnsShortName), ["alice-workstation", "alices-macbook-air", "db-prod-1", "web01", "carol-desktop"])
        XCTAssertEqual(doc.nodes.map(\.exclusion), [.thisMachine, nil, nil, nil, .sharedIn])
        let mac = doc.nodes[1], db = doc.nodes[2], web = doc.nodes[3]
        XCTAssertEqual(mac.nodeID, "nV2dG8sLqCNTRL")
        XCTAssertEqual(mac.tags, [])
        XCTAssertEqual(mac.online, false)
        XCTAssertEqual(mac.lastSeen, "2026-11-27T18:42:10Z")
        XCTAssertEqual(mac.owner, "alice@example.com")
        XCTAssertEqual(db.tags, ["tag:db", "tag:prod"])
        XCTAssertNil(db.owner)    // tagged-devices: the tags say whose it is
        XCTAssertEqual(db.addresses, ["100.88.14.3", "fd7a:115c:a1e0:ab12:4843:cd96:6258:e03"])
        XCTAssertEqual(web.dnsName, "web01.tail4f21c8.ts.net")
        XCTAssertEqual(web.online, true)
        XCTAssertNil(web.lastSeen)
        XCTAssertEqual(web.sshHostKeys.map { String($0.prefix(while: { $0 != " " })) }, ["ssh-rsa", "ecdsa-sha2-nistp256", "ssh-ed25519"])
    }

    func testDeviceList() throws {
        let doc = try TailscaleFixtures.document(TailscaleFixtures.own("devices-five.json"))
        XCTAssertEqual(doc.format, .devices)
        XCTAssertNil(doc.backendState)
        XCTAssertEqual(doc.nodes.map(\.nodeID), ["nK4pRz7YwCNTRL", "nV2dG8sLqCNTRL", "nB6tX3hMeCNTRL", "nP3w9QxZkCNTRL", "nH9cN4vJuCNTRL"])
        XCTAssertEqual(doc.nodes.map(\.exclusion), [nil, .blocksIncoming, nil, .notAuthorized, nil])
        XCTAssertEqual(doc.nodes[4].dnsName, "carol-nas.tail9e7d21.ts.net")
        XCTAssertEqual(doc.nodes[4].online, false)
        XCTAssertEqual(doc.nodes[4].lastSeen, "2026-11-29T06:55:21Z")
        XCTAssertEqual(doc.nodes[2].tags, ["tag:db", "tag:prod"])
        XCTAssertTrue(doc.nodes.allSatisfy { $0.sshHostKeys.isEmpty })
    }

    func testEmptyPeers() throws {
        let doc = try TailscaleFixtures.document(TailscaleFixtures.own("status-no-peers.json"))
        XCTAssertEqual(doc.format, .status)
        XCTAssertEqual(doc.nodes.count, 1)
        XCTAssertEqual(doc.nodes[0].exclusion, .thisMachine)
    }

    func testRefusals() throws {
        let cases: [(String, String)] = [
            ("inventory-not-tailscale.json", "the input is JSON but not a Tailscale status or device list"),
            ("status-cut-off.json", "the input is not valid JSON: it ends early, at line 91 (the input looks cut off)"),
        ]
        for (name, expected) in cases {
            let url = TailscaleFixtures.own(name)
            XCTAssertThrowsError(try TailscaleFixtures.document(url), name) { XCTAssertEqual(($0 as? TailscaleInputError)?.message, expected, name) }
        }
    }

    func testOwnFixturesAndInlineInputs() throws {
        let refusals: [(input: String, message: String)] = [
            ("", "the input is empty; expected the output of 'tailscale status --json' or an API device list"),
            ("  \n", "the input is empty; expected the output of 'tailscale status --json' or an API device list"),
            ("[1, 2]", "the input is JSON but not a Tailscale status or device list"),
            (#"{"devices": {}}"#, "the input is JSON but not a Tailscale status or device list"),
            (#"{"Peer": {}}"#, "the input is JSON but not a Tailscale status or device list"),
            (#"{"devices": [1]}"#, "the input looks like Tailscale JSON but devices[0] is a number, expected an object"),
            ("PK\u{3}\u{4}", "the input is not valid JSON: unexpected 'P' at line 1, column 1"),
        ]
        for r in refusals {
            XCTAssertThrowsError(try TailscaleDocumentReader.read(MemorySource(r.input)), r.input) {
                XCTAssertEqual(($0 as? TailscaleInputError)?.message, r.message, r.input)
            }
        }
        // A UTF-8 byte order mark is ignored (RFC 8259 §8.1); UTF-16 is refused by name.
        let bom = try TailscaleDocumentReader.read(MemorySource([0xEF, 0xBB, 0xBF] + Array(#"{"devices": []}"#.utf8)))
        XCTAssertEqual(bom.format, .devices)
        let utf16: [UInt8] = [0xFF, 0xFE] + Array(#"{"devices":[]}"#.utf8).flatMap { [$0, 0] }
        XCTAssertThrowsError(try TailscaleDocumentReader.read(MemorySource(utf16))) {
            XCTAssertEqual(($0 as? TailscaleInputError)?.message, "the input is UTF-16 text; JSON must be UTF-8")
        }
        XCTAssertThrowsError(try TailscaleDocumentReader.read(MemorySource([0xEF, 0xBB, 0xBF]))) {
            XCTAssertEqual($0 as? TailscaleInputError, .empty)
            XCTAssertEqual(($0 as? TailscaleInputError)?.message, TailscaleInputError.empty.message)
        }
        let empty = try TailscaleDocumentReader.read(MemorySource(#"{"devices": []}"#))
        XCTAssertEqual(empty.format, .devices)
        XCTAssertEqual(empty.nodes, [])

        let stopped = TailscaleFixtures.own("status-stopped.json")
        XCTAssertThrowsError(try TailscaleFixtures.document(stopped)) {
            XCTAssertEqual(($0 as? TailscaleInputError)?.message, TailscaleInputError.notRunning("Stopped").message)
            XCTAssertEqual(($0 as? TailscaleInputError)?.hint, "Start Tailscale ('tailscale up') and export the status again.")
        }
        XCTAssertThrowsError(try TailscaleFixtures.document(TailscaleFixtures.own("status-wrong-type.json"))) {
            XCTAssertEqual(($0 as? TailscaleInputError)?.message,
                           "the input looks like Tailscale JSON but Peer[\"nodekey:\(String(repeating: "9", count: 64))\"].TailscaleIPs is a string, expected an array of strings")
        }
    }

    /// The MagicDNS suffix a document speaks for: `CurrentTailnet`'s, else the legacy copy,
    /// else Self's domain (before 1.20); for a device list, the domain all its own (not
    /// external) devices share.
    func testMagicDNSSuffix() throws {
        XCTAssertEqual(try TailscaleFixtures.document(TailscaleFixtures.own("status-four-peers.json")).tailnet.magicDNSSuffix, "tail4f21c8.ts.net")
        XCTAssertEqual(try TailscaleFixtures.document(TailscaleFixtures.own("devices-five.json")).tailnet.magicDNSSuffix, "tail4f21c8.ts.net")
        XCTAssertEqual(try TailscaleFixtures.document(TailscaleFixtures.own("status-old-format.json")).tailnet.magicDNSSuffix, "tail7c3e90.ts.net")
        XCTAssertEqual(try TailscaleFixtures.document(TailscaleFixtures.own("status-two-tailnets.json")).tailnet.magicDNSSuffix, "tail7c3e90.ts.net")
        func suffix(_ json: String) throws -> String? {
            try TailscaleDocumentReader.read(MemorySource(Array(json.utf8))).tailnet.magicDNSSuffix
        }
        XCTAssertEqual(try suffix(#"{"BackendState":"Running","MagicDNSSuffix":"old.ts.net","CurrentTailnet":{"MagicDNSSuffix":"new.ts.net"},"Self":null,"Peer":null}"#), "new.ts.net")
        XCTAssertEqual(try suffix(#"{"BackendState":"Running","MagicDNSSuffix":"","CurrentTailnet":null,"Self":{"DNSName":"me.tail9.ts.net."},"Peer":null}"#), "tail9.ts.net")
        XCTAssertNil(try suffix(#"{"BackendState":"Running","MagicDNSSuffix":"com","Self":null,"Peer":{}}"#))
        XCTAssertNil(try suffix(#"{"devices":[{"name":"a.tail1.ts.net"},{"name":"github.com"}]}"#), "devices that disagree give no suffix")
        XCTAssertEqual(try suffix(#"{"devices":[{"name":"a.tail1.ts.net"},{"name":"b.tail2.ts.net","isExternal":true}]}"#), "tail1.ts.net")
    }
}
