// The Tailscale import's planner as a table: devices and the current rows in, the plan out,
// with no database. Each case states the host step and every key decision; the hostile ones
// are from issue 9 (a crafted device list adding a key of another type beside a manually
// approved key is CHANGED, never trusted). The last test writes a plan whose devices share
// a name through the real importer, so the applier's handling of planned ids is checked too.
// The hostile cases of issue 18 give devices names and addresses outside the tailnet
// (`github.com` with public addresses): no key is trusted for those, and the host is dialled
// at its Tailscale IP or not imported.
import Foundation
@testable import HostStore
import ImportFormats
import KeyFormats
import XCTest

final class TailscaleImportPlannerTests: XCTestCase {
    static func ed25519(_ seed: UInt8) -> PublicKey {
        PublicKey(.ed25519(publicKey: (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 5 &+ Int(seed)) }))
    }
    static let ecdsa = try! PublicKeyLine.parse("ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBIb3BhJZk+vUQPg5TQc1koIzuGqloCq7wjr9LjlhG24IBeiFHLsdWw74HDlH4DrOmlxToVYk2lTdnjARleRByjk=").key

    static let fqdn = "web01.tail1.ts.net"
    static let ip = "100.64.0.1"
    static let tailnet = TailscaleTailnet(magicDNSSuffix: "tail1.ts.net")

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
            // Names refused as such (not one key's verdict).
            for p in d.keyProblems where p.keyType.isEmpty { out.append("  refused \(p.pattern): \(p.reason)") }
        }
        return out
    }

    struct Case {
        let name: String
        var nodes: [TailscaleNode]
        var snapshot = TailscaleImportSnapshot()
        var entries: [String: [KnownHostRow]] = [:]
        var options = TailscaleImportOptions()
        var tailnet = TailscaleImportPlannerTests.tailnet
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
        ] + scopeCases()
        for c in cases {
            let plan = TailscaleImportPlanner.plan(c.nodes, snapshot: c.snapshot, entries: c.entries, options: c.options, tailnet: c.tailnet)
            XCTAssertEqual(Self.describe(plan), c.expected, c.name)
            if let trusted = c.trusted {
                XCTAssertEqual(plan.report(format: .status, dryRun: true).entriesTrusted, trusted, c.name)
            }
        }
    }

    /// Which names a document speaks for: the cases of issue 18 (a device named `github.com`
    /// with public addresses), the neighbours of Tailscale's ranges, and another tailnet's
    /// name (a node shared in keeps it).
    func scopeCases() -> [Case] {
        let k1 = Self.ed25519(1), ip = Self.ip
        let notName = "not a MagicDNS name of the tailnet (the tailnet's MagicDNS suffix is tail1.ts.net)"
        let notAddress = "not a Tailscale address (100.64.0.0/10 or fd7a:115c:a1e0::/48)"
        return [
            Case(name: "hostile: a public name with public addresses is not imported and trusts nothing",
                 nodes: [Self.device(dns: "github.com", ips: ["140.82.112.3", "2606:50c0:8000::154"], keys: [k1])],
                 expected: ["skip github: 'github.com' is \(notName) and it has no Tailscale IP"], trusted: 0),
            Case(name: "hostile: a public name beside a Tailscale IP: dialled at the IP, keys only for the IP",
                 nodes: [Self.device(dns: "github.com", ips: ["140.82.112.3", ip, "2606:50c0:8000::154"], keys: [k1])],
                 expected: ["add github \(ip) ('github.com' is not a MagicDNS name of the tailnet: dialled at its Tailscale IP)",
                            "  \(ip) ssh-ed25519 new",
                            "  refused github.com: \(notName)", "  refused 140.82.112.3: \(notAddress)",
                            "  refused 2606:50c0:8000::154: \(notAddress)"], trusted: 1),
            Case(name: "hostile: two labels under the suffix are not a machine name",
                 nodes: [Self.device(dns: "www.evil.tail1.ts.net", ips: [ip], keys: [k1])],
                 expected: ["add www \(ip) ('www.evil.tail1.ts.net' is not a MagicDNS name of the tailnet: dialled at its Tailscale IP)",
                            "  \(ip) ssh-ed25519 new", "  refused www.evil.tail1.ts.net: \(notName)"], trusted: 1),
            Case(name: "hostile: the document's suffix is one label ('com'): it vouches for nothing",
                 nodes: [Self.device(dns: "github.com", ips: [], keys: [k1])], tailnet: TailscaleTailnet(magicDNSSuffix: ".com."),
                 expected: ["skip github: 'github.com' is not a MagicDNS name of the tailnet (the input names no MagicDNS suffix) and it has no Tailscale IP"],
                 trusted: 0),
            Case(name: "hostile: no name and only a public address", nodes: [Self.device(dns: "", ips: ["192.0.2.1"], keys: [k1])],
                 expected: ["skip web01: no MagicDNS name or Tailscale IP"], trusted: 0),
            Case(name: "the edges of Tailscale's ranges",
                 nodes: [Self.device(ips: ["100.63.255.255", "100.64.0.0", "100.127.255.255", "100.128.0.0",
                                           "fd7a:115c:a1e0:ffff::1", "fd7a:115c:a1e1::1", "FD7A:115C:A1E0::2"], keys: [k1])],
                 expected: ["add web01 \(Self.fqdn)", "  \(Self.fqdn) ssh-ed25519 new", "  100.64.0.0 ssh-ed25519 new",
                            "  100.127.255.255 ssh-ed25519 new", "  fd7a:115c:a1e0:ffff::1 ssh-ed25519 new", "  fd7a:115c:a1e0::2 ssh-ed25519 new",
                            "  refused 100.63.255.255: \(notAddress)", "  refused 100.128.0.0: \(notAddress)",
                            "  refused fd7a:115c:a1e1::1: \(notAddress)"], trusted: 5),
            Case(name: "a node shared in from another tailnet keeps its *.ts.net name",
                 nodes: [Self.device(dns: "nas.tail2.ts.net", keys: [k1])],
                 expected: ["add nas nas.tail2.ts.net", "  nas.tail2.ts.net ssh-ed25519 new", "  \(ip) ssh-ed25519 new"], trusted: 2),
            Case(name: "an older tailnet's suffix (beta.tailscale.net), the document stating none",
                 nodes: [Self.device(dns: "box.alice.beta.tailscale.net", keys: [k1])], tailnet: TailscaleTailnet(magicDNSSuffix: nil),
                 expected: ["add box box.alice.beta.tailscale.net", "  box.alice.beta.tailscale.net ssh-ed25519 new", "  \(ip) ssh-ed25519 new"],
                 trusted: 2),
            Case(name: "a headscale tailnet under its own domain",
                 nodes: [Self.device(dns: "web01.hs.example.org", keys: [k1])], tailnet: TailscaleTailnet(magicDNSSuffix: "hs.example.org"),
                 expected: ["add web01 web01.hs.example.org", "  web01.hs.example.org ssh-ed25519 new", "  \(ip) ssh-ed25519 new"], trusted: 2),
            Case(name: "a device that was imported before moves to its Tailscale IP when its name leaves the tailnet",
                 nodes: [Self.device(dns: "web01.example.com", keys: [])],
                 snapshot: TailscaleImportSnapshot(takenNames: ["web"], hostsByNodeID: ["n1": TailscaleImportSnapshot.ExistingHost(
                    id: 7, name: "web", hasUser: true, signature: 0, tags: [])]),
                 expected: ["update #7 \(ip) tags ->"]),
        ]
    }

    /// The planner asks the store only for names it does not hold already, and never for a
    /// name it will not trust a key for.
    func testNamesToLookUp() {
        let nodes = [Self.device("n1", dns: "a.tail1.ts.net", keys: [Self.ed25519(1)]), Self.device("n2", dns: "b.tail1.ts.net", keys: [Self.ed25519(2)]),
                     Self.device("n3", dns: "github.com", ips: [Self.ip, "140.82.112.3"], keys: [Self.ed25519(3)])]
        var planner = TailscaleImportPlanner(snapshot: TailscaleImportSnapshot(knownHostsEmpty: false), options: TailscaleImportOptions(),
                                             tailnet: Self.tailnet, nodes: nodes)
        XCTAssertEqual(planner.namesToLookUp(nodes[0]), ["a.tail1.ts.net", Self.ip])
        _ = planner.plan(nodes[0], entries: [:])
        XCTAssertEqual(planner.namesToLookUp(nodes[1]), ["b.tail1.ts.net"], "the shared address is held by the plan")
        _ = planner.plan(nodes[1], entries: [:])
        XCTAssertEqual(planner.namesToLookUp(nodes[2]), [], "the public name and address are not looked up")
    }

    /// The suffix as documents state it, and the rules on their own.
    func testTailnetRules() {
        XCTAssertEqual(TailscaleTailnet(magicDNSSuffix: "Tail4F21C8.ts.net.").magicDNSSuffix, "tail4f21c8.ts.net")
        for bad in [nil, "", "com", ".", "*.ts.net", "a b.example", "-x.example"] {
            XCTAssertNil(TailscaleTailnet(magicDNSSuffix: bad).magicDNSSuffix, bad ?? "nil")
        }
        let t = Self.tailnet
        XCTAssertTrue(t.isMagicDNSName("web01.tail1.ts.net"))
        XCTAssertTrue(t.isMagicDNSName("web01.other.ts.net"))
        for name in ["tail1.ts.net", "ts.net", ".tail1.ts.net", "a.b.tail1.ts.net", "github.com", "web01.tail1.ts.net.evil.com", "x.ts.net"] {
            XCTAssertFalse(t.isMagicDNSName(name), name)
        }
        for ip in ["100.64.0.1", "100.127.0.0", "fd7a:115c:a1e0::1", "fd7a:115c:a1e0:ab12:4843:cd96:6258:e03"] {
            XCTAssertTrue(TailscaleTailnet.isTailscaleAddress(ip), ip)
        }
        for ip in ["100.128.0.1", "100.63.0.1", "10.0.0.1", "fd7a:115c:a1e1::1", "fd7a:115c:a1e0::1%eth0", "::ffff:100.64.0.1", "web01"] {
            XCTAssertFalse(TailscaleTailnet.isTailscaleAddress(ip), ip)
        }
    }

    /// Written through the real importer: the second device's rotation replaces the row the
    /// first device's plan wrote, so the shared address ends with one entry and two events.
    func testSharedNameAppliedInOneTransaction() throws {
        let db = try TemporaryDatabase()
        var nodes = [Self.device("n1", dns: "a.tail1.ts.net", keys: [Self.ed25519(1)]), Self.device("n2", dns: "b.tail1.ts.net", keys: [Self.ed25519(2)])]
        let report = try TailscaleImporter(connection: db.connection).run(format: .status, tailnet: Self.tailnet, nodes: &nodes, options: TailscaleImportOptions())
        XCTAssertEqual(report.entriesTrusted, 4)
        XCTAssertEqual(try db.strings("SELECT \(KnownHostsSQL.fingerprint) FROM known_hosts WHERE pattern = ?", [.text(Self.ip)]), [Self.ed25519(2).sha256Fingerprint])
        XCTAssertEqual(try db.strings("SELECT event FROM host_key_events WHERE host = ? ORDER BY id", [.text(Self.ip)]), ["imported", "replaced"])
        XCTAssertEqual(try db.count("SELECT count(*) FROM known_hosts"), 3)
    }
}
