// From a read Tailscale device to the host it becomes (TailscaleHostMapping): aliases from
// Unicode and missing names, addresses, and the patterns a key may be pinned for.
@testable import HostStore
import ImportFormats
import XCTest
import TestSupport

final class TailscaleHostMappingTests: XCTestCase {
    func testUnicodeHostnames() throws {
        let doc = try TailscaleFixtures.document(TailscaleFixtures.own("status-unicode-names.json"))
        let peers = doc.nodes.filter { $0.exclusion == nil }
        XCTAssertEqual(Set(peers.map { TailscaleHostMapping($0).alias }), ["xn--bcher-nas-q9a", "zos-build-box", "xn---01-2f1nx7p", "rd-lab"])
        XCTAssertEqual(Set(peers.map(\.hostName)), ["bücher-nas", "🚀 Zoë's build box 🚀", "서버-01", "R&D <lab>"])
        let books = try XCTUnwrap(peers.first { $0.hostName == "bücher-nas" })
        XCTAssertEqual(TailscaleHostMapping(books).displayAlias, "bücher-nas")
    }

    /// Before v1.20: `TailAddr` instead of `TailscaleIPs`, no `Online`, `Tags` or `User`;
    /// a node without ID falls back to its node key, one without DNSName to its HostName.
    func testOldFormat() throws {
        let doc = try TailscaleFixtures.document(TailscaleFixtures.own("status-old-format.json"))
        XCTAssertEqual(doc.nodes.count, 3)
        let old = doc.nodes[1], nameless = doc.nodes[2]
        XCTAssertEqual(old.addresses, ["100.80.2.1"])
        XCTAssertNil(old.online)
        XCTAssertNil(old.owner)
        XCTAssertEqual(nameless.nodeID, "nodekey:" + String(repeating: "d", count: 64))
        let m = TailscaleHostMapping(nameless)
        XCTAssertEqual(m.alias, "old-box-2")
        XCTAssertEqual(m.address, "100.80.2.2")
        XCTAssertEqual(m.patterns, ["100.80.2.2"])
    }

    func testMappingRefusesUnsafePatterns() {
        var node = TailscaleNode()
        node.nodeID = "nX"
        node.dnsName = "*.evil,example.com"
        node.hostName = "evil box"
        node.addresses = ["100.1.2.3", "10.0.0.0/8", "!host", "FD7A::1"]
        let m = TailscaleHostMapping(node)
        XCTAssertEqual(m.fqdn, "")
        XCTAssertEqual(m.alias, "evil-box")
        XCTAssertEqual(m.address, "100.1.2.3")
        XCTAssertEqual(m.patterns, ["100.1.2.3", "fd7a::1"])
    }
}
