// The one decision on which devices a Tailscale import is about (TailscaleSelection, applied
// by the planner): filters, --only (which also takes a device skipped by default), the
// default exclusions and --include-skipped; and the importer reporting only those devices.
@testable import HostStore
import ImportFormats
import XCTest

final class TailscaleSelectionTests: XCTestCase {
    func device(_ id: String, _ name: String, online: Bool? = true, tags: [String] = [], exclusion: TailscaleExclusion? = nil) -> TailscaleNode {
        var n = TailscaleNode()
        n.nodeID = id
        n.dnsName = "\(name).tail1.ts.net"
        n.hostName = name
        n.addresses = ["100.64.0.\(id.count)"]
        n.online = online
        n.tags = tags
        n.exclusion = exclusion
        return n
    }

    func testDecide() {
        let web = device("n1", "web01", tags: ["tag:prod"])
        let me = device("n2", "me", exclusion: .thisMachine)
        let off = device("n3", "db01", online: false)
        let all = TailscaleSelection()
        XCTAssertEqual([web, me, off].map(all.decide), [.planned, .skipped(.thisMachine), .planned])
        let skippedToo = TailscaleSelection(includeSkipped: true)
        XCTAssertEqual([web, me, off].map(skippedToo.decide), [.planned, .planned, .planned])
        let named = TailscaleSelection(only: ["ME", "db01.tail1.ts.net"])
        XCTAssertEqual([web, me, off].map(named.decide), [.leftOut, .planned, .planned], "--only takes a device skipped by default")
        let namedOnline = TailscaleSelection(only: ["me", "db01"], onlineOnly: true)
        XCTAssertEqual([web, me, off].map(namedOnline.decide), [.leftOut, .planned, .leftOut], "--only still applies the filters")
        let tagged = TailscaleSelection(tags: ["tag:prod"])
        XCTAssertEqual([web, me, off].map(tagged.decide), [.planned, .leftOut, .leftOut])
        XCTAssertNil(named.firstMissingName(in: [web, me, off]))
        XCTAssertEqual(TailscaleSelection(only: ["web01", "Nope"]).firstMissingName(in: [web, me, off]), "Nope")
        XCTAssertEqual(namedOnline.firstMissingName(in: [web, me, off]), nil, "a filtered device still answers to its name")
    }

    /// The importer is handed every device and reports only the ones the selection is
    /// about; a named device skipped by default is imported.
    func testImporterAppliesTheSelection() throws {
        let db = try TemporaryDatabase()
        let nodes = [device("n1", "web01", tags: ["tag:prod"]), device("n2", "me", exclusion: .thisMachine), device("n3", "db01", online: false)]
        var options = TailscaleImportOptions()
        options.selection = TailscaleSelection(only: ["me", "web01"])
        let report = try db.importAll(TailscaleDocument(format: .status, backendState: "Running", nodes: nodes,
                                                        tailnet: TailscaleTailnet(magicDNSSuffix: "tail1.ts.net")), options)
        XCTAssertEqual(report.hosts.map(\.name), ["web01", "me"])
        XCTAssertEqual(report.hosts.map(\.action), [.added, .added])
        options.selection = TailscaleSelection(onlineOnly: true)
        let again = try db.importAll(TailscaleDocument(format: .status, backendState: "Running", nodes: nodes,
                                                       tailnet: TailscaleTailnet(magicDNSSuffix: "tail1.ts.net")), options)
        XCTAssertEqual(again.hosts.map(\.name), ["web01", "me"])
        XCTAssertEqual(again.hosts.map(\.action), [.unchanged, .skipped])
        XCTAssertEqual(again.hosts.last?.reason, "this machine")
    }
}
