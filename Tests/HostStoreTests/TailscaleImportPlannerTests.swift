// The Tailscale import's planner as a table: devices and the current rows in, the plan out,
// with no database. Each case states the host step and every key decision; the hostile ones
// are from issue 9 (a crafted device list adding a key of another type beside a manually
// approved key is CHANGED, never trusted). The last test writes a plan whose devices share
// a name through the real importer, so the applier's handling of planned ids is checked too.
import Foundation
@testable import HostStore
import KeyFormats
import XCTest

final class TailscaleImportPlannerTests: XCTestCase {
    static func ed25519(_ seed: UInt8) -> PublicKey {
        PublicKey(.ed25519(publicKey: (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 5 &+ Int(seed)) }))
    }
    static let ecdsa = try! PublicKeyLine.parse("ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBIb3BhJZk+vUQPg5TQc1koIzuGqloCq7wjr9LjlhG24IBeiFHLsdWw74HDlH4DrOmlxToVYk2lTdnjARleRByjk=").key

    static let fqdn = "web01.tail1.ts.net"
    static let ip = "100.64.0.1"

    static func device(_ id: String = "n1", dns: String = fqdn, ips: [String] = [ip], keys: [PublicKey], tags: [String] = []) -> TailscaleNode {
        var n = TailscaleNode()
        n.nodeID = id
        n.dnsName = dns
        n.hostName = "web01"
        n.os = "linux"
        n.addresses = ips
        n.online = true
        n.tags = tags
        n.sshHostKeys = keys.map { "\($0.type) \($0.base64)" }
        return n
    }

    static func row(_ id: Int64, _ pattern: String, _ key: PublicKey, source: String, marker: KnownHostsLine.Marker = .none) -> KnownHostRow {
        KnownHostRow(plannedID: id, pattern: pattern, marker: marker, key: key, fingerprint: key.sha256Fingerprint, source: source)
    }

    /// The plan in words: one line per device, then one per key decision.
    static func describe(_ plan: TailscaleImportPlan) -> [String] {
        var out: [String] = []
        for d in plan.devices {
            switch d.host {
            case .skip: out.append("skip \(d.result.name): \(d.result.reason ?? "")")
            case .add(let row, _): out.append("add \(row.name) \(row.hostname)" + (d.result.reason.map { " (\($0))" } ?? ""))
            case .update(let id, let hostname, _, let oldTags, let node):
                out.append("update #\(id) \(hostname) tags \(oldTags.joined(separator: ","))->\(node.tags.joined(separator: ","))")
            case .leave(let id): out.append("leave #\(id)")
            }
            for k in d.keys {
                let what: String
                switch k.decision {
                case .alreadyTrusted: what = "trusted"
                case .new: what = "new"
                case .revoked: what = "revoked"
                case .conflict(let source, _): what = "changed (conflict with \(source))"
                case .rotated(let ids, _): what = "rotated replacing \(ids.map(String.init).joined(separator: ","))"
                }
                out.append("  \(k.pattern) \(k.key.type) \(what)")
            }
        }
        return out
    }

    struct Case {
        let name: String
        var nodes: [TailscaleNode]
        var snapshot = TailscaleImportSnapshot()
        var entries: [String: [KnownHostRow]] = [:]
        var options = TailscaleImportOptions()
        let expected: [String]
        var trusted: Int? = nil
    }

    func testTable() {
        let k1 = Self.ed25519(1), k2 = Self.ed25519(2), ec = Self.ecdsa
        let fqdn = Self.fqdn, ip = Self.ip
        let existing = TailscaleImportSnapshot.ExistingHost(id: 7, name: "web", hasUser: true, signature: 0, tags: ["tag:old"])
        var rename = TailscaleImportOptions()
        rename.renameClashes = true
        var noKeys = TailscaleImportOptions()
        noKeys.trustHostKeys = false
        let cases: [Case] = [
            Case(name: "first import into an empty store", nodes: [Self.device(keys: [k1, ec])],
                 expected: ["add web01 \(fqdn)", "  \(fqdn) ssh-ed25519 new", "  \(fqdn) ecdsa-sha2-nistp256 new",
                            "  \(ip) ssh-ed25519 new", "  \(ip) ecdsa-sha2-nistp256 new"], trusted: 4),
            Case(name: "re-import: same device, same keys",
                 nodes: [Self.device(keys: [k1])],
                 snapshot: TailscaleImportSnapshot(takenNames: ["web"], hostsByNodeID: ["n1": TailscaleImportSnapshot.ExistingHost(
                    id: 7, name: "web", hasUser: true,
                    signature: TailscaleNodeRow(dnsName: fqdn, os: "linux", online: true, lastSeen: nil, owner: nil, tags: []).signature(hostname: fqdn),
                    tags: [])], knownHostsEmpty: false),
                 entries: [fqdn: [Self.row(1, fqdn, k1, source: "tailscale")], ip: [Self.row(2, ip, k1, source: "tailscale")]],
                 expected: ["leave #7", "  \(fqdn) ssh-ed25519 trusted", "  \(ip) ssh-ed25519 trusted"], trusted: 0),
            Case(name: "re-import: the device changed, tags move",
                 nodes: [Self.device(keys: [], tags: ["tag:new"])],
                 snapshot: TailscaleImportSnapshot(takenNames: ["web"], hostsByNodeID: ["n1": existing]),
                 expected: ["update #7 \(fqdn) tags tag:old->tag:new"]),
            Case(name: "hostile: a key of another type beside a manually approved key is changed, not trusted",
                 nodes: [Self.device(keys: [k1, ec])], snapshot: TailscaleImportSnapshot(knownHostsEmpty: false),
                 entries: [fqdn: [Self.row(1, fqdn, k1, source: "manual")]],
                 expected: ["add web01 \(fqdn)", "  \(fqdn) ssh-ed25519 trusted", "  \(fqdn) ecdsa-sha2-nistp256 changed (conflict with manual)",
                            "  \(ip) ssh-ed25519 new", "  \(ip) ecdsa-sha2-nistp256 new"], trusted: 2),
            Case(name: "hostile: only a key of another type than the approved one",
                 nodes: [Self.device(ips: [], keys: [ec])], snapshot: TailscaleImportSnapshot(knownHostsEmpty: false),
                 entries: [fqdn: [Self.row(1, fqdn, k1, source: "manual")]],
                 expected: ["add web01 \(fqdn)", "  \(fqdn) ecdsa-sha2-nistp256 changed (conflict with manual)"], trusted: 0),
            Case(name: "hostile: an approved pattern entry covers the name",
                 nodes: [Self.device(ips: [], keys: [ec])],
                 snapshot: TailscaleImportSnapshot(specialEntries: [Self.row(1, "*.tail1.ts.net", k1, source: "known_hosts")], knownHostsEmpty: false),
                 expected: ["add web01 \(fqdn)", "  \(fqdn) ecdsa-sha2-nistp256 changed (conflict with known_hosts)"], trusted: 0),
            Case(name: "hostile: a revoked key is never trusted",
                 nodes: [Self.device(ips: [], keys: [k1])],
                 snapshot: TailscaleImportSnapshot(specialEntries: [Self.row(1, "*", k1, source: "manual", marker: .revoked)], knownHostsEmpty: false),
                 expected: ["add web01 \(fqdn)", "  \(fqdn) ssh-ed25519 revoked"], trusted: 0),
            Case(name: "rotation of a key the last import trusted",
                 nodes: [Self.device(ips: [], keys: [k2])], snapshot: TailscaleImportSnapshot(knownHostsEmpty: false),
                 entries: [fqdn: [Self.row(4, fqdn, k1, source: "tailscale")]],
                 expected: ["add web01 \(fqdn)", "  \(fqdn) ssh-ed25519 rotated replacing 4"], trusted: 1),
            Case(name: "hostile: two devices give the same address; the second sees the first's planned key",
                 nodes: [Self.device("n1", dns: "a.tail1.ts.net", keys: [k1]), Self.device("n2", dns: "b.tail1.ts.net", keys: [k2])],
                 expected: ["add a a.tail1.ts.net", "  a.tail1.ts.net ssh-ed25519 new", "  \(ip) ssh-ed25519 new",
                            "add b b.tail1.ts.net", "  b.tail1.ts.net ssh-ed25519 new", "  \(ip) ssh-ed25519 rotated replacing -1"], trusted: 4),
            Case(name: "hostile: the same node ID twice", nodes: [Self.device(ips: [], keys: [k1]), Self.device(ips: [], keys: [k2])],
                 // Two devices with one alias both fall back to the full MagicDNS name.
                 expected: ["add \(fqdn) \(fqdn)", "  \(fqdn) ssh-ed25519 new", "skip \(fqdn): the same node ID appears twice in the input"], trusted: 1),
            Case(name: "a name that is taken", nodes: [Self.device(keys: [k1])], snapshot: TailscaleImportSnapshot(takenNames: ["web01"]),
                 expected: ["skip web01: a host named 'web01' already exists (not this Tailscale node); use --rename-clashes to import it under another name"]),
            Case(name: "a name that is taken, --rename-clashes", nodes: [Self.device(ips: [], keys: [k1])],
                 snapshot: TailscaleImportSnapshot(takenNames: ["web01", "web01-2"]), options: rename,
                 expected: ["add web01-3 \(fqdn) (renamed: a host named 'web01' already exists)", "  \(fqdn) ssh-ed25519 new"]),
            Case(name: "--no-host-keys decides no key", nodes: [Self.device(keys: [k1])], options: noKeys,
                 expected: ["add web01 \(fqdn)"], trusted: 0),
        ]
        for c in cases {
            let plan = TailscaleImportPlanner.plan(c.nodes, snapshot: c.snapshot, entries: c.entries, options: c.options)
            XCTAssertEqual(Self.describe(plan), c.expected, c.name)
            if let trusted = c.trusted {
                XCTAssertEqual(plan.report(format: .status, dryRun: true).entriesTrusted, trusted, c.name)
            }
        }
    }

    /// The planner asks the store only for names it does not hold already.
    func testNamesToLookUp() {
        let nodes = [Self.device("n1", dns: "a.tail1.ts.net", keys: [Self.ed25519(1)]), Self.device("n2", dns: "b.tail1.ts.net", keys: [Self.ed25519(2)])]
        var planner = TailscaleImportPlanner(snapshot: TailscaleImportSnapshot(knownHostsEmpty: false), options: TailscaleImportOptions(), nodes: nodes)
        XCTAssertEqual(planner.namesToLookUp(nodes[0]), ["a.tail1.ts.net", Self.ip])
        _ = planner.plan(nodes[0], entries: [:])
        XCTAssertEqual(planner.namesToLookUp(nodes[1]), ["b.tail1.ts.net"], "the shared address is held by the plan")
    }

    /// Written through the real importer: the second device's rotation replaces the row the
    /// first device's plan wrote, so the shared address ends with one entry and two events.
    func testSharedNameAppliedInOneTransaction() throws {
        let db = try TemporaryDatabase()
        var nodes = [Self.device("n1", dns: "a.tail1.ts.net", keys: [Self.ed25519(1)]), Self.device("n2", dns: "b.tail1.ts.net", keys: [Self.ed25519(2)])]
        let report = try TailscaleImporter(connection: db.connection).run(format: .status, nodes: &nodes, options: TailscaleImportOptions())
        XCTAssertEqual(report.entriesTrusted, 4)
        XCTAssertEqual(try db.strings("SELECT fingerprint FROM known_hosts WHERE pattern = ?", [.text(Self.ip)]), [Self.ed25519(2).sha256Fingerprint])
        XCTAssertEqual(try db.strings("SELECT event FROM host_key_events WHERE host = ? ORDER BY id", [.text(Self.ip)]), ["imported", "replaced"])
        XCTAssertEqual(try db.count("SELECT count(*) FROM known_hosts"), 3)
    }
}
