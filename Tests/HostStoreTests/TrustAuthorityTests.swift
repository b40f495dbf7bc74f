// Who may speak for a host (TrustAuthority), as a table over a real database file: origins
// (the user's known_hosts import, a team bundle, a Tailscale document) × entry kinds (plain,
// hashed, `@cert-authority`, `@revoked`) × overlaps with what others hold (nothing, the
// address of the user's host, that hostname on another port, a key the user trusts, another
// bundle's host, a wildcard). The user writes every entry; no other origin writes one that
// overlaps. Then the rule's edges: a port other than 22, jump hosts within a bundle, names
// this machine resolves itself, and a changed pinned key taking the stored password away.
@testable import HostStore
import ImportFormats
import KeyFormats
import System
import XCTest
import TestSupport

final class TrustAuthorityTests: XCTestCase {
    static let keyA = BundleStoreTests.keyA
    static let keyB = BundleStoreTests.keyB
    static func key(_ b64: String) -> PublicKey { BundleStoreTests.key(b64) }
    /// A Tailscale address, so that a Tailscale document may speak for it at all.
    static let address = "100.64.0.1"
    static let tailnet = TailscaleTailnet(magicDNSSuffix: "tail1.ts.net")

    enum Origin: CaseIterable { case user, bundle, tailscale }
    enum Kind: CaseIterable { case plain, hashed, certificateAuthority, revoked }
    enum Overlap: CaseIterable { case none, userHost, userHostOnAnotherPort, userTrustedKey, anotherBundlesHost, wildcard }

    /// The line of `kind` for the address (or, for `.wildcard`, for a pattern or a name the
    /// bundle does not own).
    static func line(_ kind: Kind, _ overlap: Overlap) -> String {
        let name = overlap == .wildcard ? "*" : address
        let key = "ssh-ed25519 \(keyB)"
        switch kind {
        case .plain: return "\(name) \(key)"
        case .hashed:
            let hashedName = overlap == .wildcard ? "elsewhere.example" : address
            return "\(HashedHostName(hashing: hashedName, salt: Array(repeating: 9, count: 20)).text) \(key)"
        case .certificateAuthority: return "@cert-authority \(name) \(key)"
        case .revoked: return "@revoked \(name) \(key)"
        }
    }

    /// A database holding what `overlap` puts beside the address.
    static func database(_ overlap: Overlap) throws -> TemporaryDatabase {
        let db = try TemporaryDatabase()
        switch overlap {
        case .none, .wildcard: break
        case .userHost: try db.database.addHost(NewHost(name: "mine", hostname: address))
        case .userHostOnAnotherPort: try db.database.addHost(NewHost(name: "mine", hostname: address, port: 2200))
        case .userTrustedKey: try KnownHostsStore(database: db.database).approve(HostLookupName(host: address), key: key(keyA), source: "tofu")
        case .anotherBundlesHost:
            let store = BundleStore(database: db.database, localNames: LocalHostNames())
            try store.apply(try store.plan(BundleDocument(name: "other", serial: 1, hosts: [BundleHost(name: "theirs", hostname: address)]), bundle: "other"))
        }
        return db
    }

    func testOnlyTheUserWritesTrustWhereAnotherOriginSpeaks() throws {
        for origin in Origin.allCases {
            for kind in Kind.allCases {
                for overlap in Overlap.allCases {
                    let db = try Self.database(overlap)
                    let line = Self.line(kind, overlap)
                    let label = "\(origin) \(kind) \(overlap): \(line)"
                    let store = KnownHostsStore(database: db.database)
                    let before = try store.all().count
                    switch origin {
                    case .user:
                        // The user's own import writes whatever the file holds.
                        XCTAssertEqual(try store.importKnownHosts(Array((line + "\n").utf8)).imported, 1, label)
                        XCTAssertEqual(try store.all().count, before + 1, label)
                    case .bundle:
                        let bundles = BundleStore(database: db.database, localNames: LocalHostNames())
                        let doc = BundleDocument(name: "team", serial: 1, hosts: [BundleHost(name: "app", hostname: Self.address)], hostKeys: [line])
                        let plan = try bundles.plan(doc, bundle: "team")
                        try bundles.apply(plan)
                        let written = try store.all().filter { $0.source == "bundle:team" }.count
                        if overlap == .none {
                            XCTAssertEqual(written, 1, label)
                            XCTAssertTrue(plan.refusedHostKeys.isEmpty, "\(label): \(plan.refusedHostKeys)")
                        } else {
                            XCTAssertEqual(written, 0, label)
                            if overlap == .userTrustedKey && (kind == .plain || kind == .hashed) {
                                // A plain key that disagrees with the user's: reported as CHANGED.
                                XCTAssertEqual(plan.changedHostKeys.map(\.host), [Self.address], label)
                            } else {
                                XCTAssertEqual(plan.refusedHostKeys.map(\.what), [line], label)
                                XCTAssertEqual(plan.refusedHostKeys.first?.reason, Self.expectedReason(overlap, kind: kind), label)
                            }
                        }
                    case .tailscale:
                        // As TailscaleImportPlanner asks, for the one kind it writes (a plain
                        // key at port 22); every kind is asked here, the rule being one.
                        var authority = TrustAuthority(origin: .tailscale, scope: .tailnet(Self.tailnet), claims: try TrustClaims.read(db.connection),
                                                       trustHeld: { try store.entries(matching: $0) })
                        let entries = try KnownHostsStore.bundleEntries(of: line)
                        var matched: [HostLookupName] = []
                        let refusal = try authority.refusal(BundleStore.targets(entries), matched: &matched)
                        if overlap == .none && kind != .hashed {
                            XCTAssertNil(refusal, label)
                        } else {
                            XCTAssertNotNil(refusal, label)
                        }
                    }
                }
            }
        }
    }

    static func expectedReason(_ overlap: Overlap, kind: Kind) -> String {
        switch overlap {
        case .none: return ""
        case .userHost: return "\(address) is the address of your host 'mine'"
        case .userHostOnAnotherPort: return "[\(address)]:2200 is the address of your host 'mine'"
        case .userTrustedKey: return "you trust a key for \(address)"
        case .anotherBundlesHost: return "\(address) is the address of host 'theirs' from bundle 'other'"
        case .wildcard: return kind == .hashed ? BundleStore.notOwnedReason : "a pattern wider than the bundle's hosts, which you did not grant"
        }
    }

    /// An entry for another port than 22 covers only that port; one for port 22 covers the
    /// hostname at every port (ssh falls back to the bare name).
    func testPortsAreComparedAsSSHLooksThemUp() throws {
        let db = try TemporaryDatabase()
        try db.database.addHost(NewHost(name: "mine", hostname: "shared.example"))
        let bundles = BundleStore(database: db.database, localNames: LocalHostNames())
        let doc = BundleDocument(name: "team", serial: 1, hosts: [BundleHost(name: "app", hostname: "shared.example", port: 2222)],
                                 hostKeys: ["@cert-authority [shared.example]:2222 ssh-ed25519 \(Self.keyB)"])
        let plan = try bundles.plan(doc, bundle: "team")
        XCTAssertEqual(plan.hostKeysToTrust, doc.hostKeys, "\(plan.refusedHostKeys)")

        let db2 = try TemporaryDatabase()
        try db2.database.addHost(NewHost(name: "mine", hostname: "shared.example", port: 2222))
        let doc2 = BundleDocument(name: "team", serial: 1, hosts: [BundleHost(name: "app", hostname: "shared.example")],
                                  hostKeys: ["shared.example ssh-ed25519 \(Self.keyB)"])
        let plan2 = try BundleStore(database: db2.database, localNames: LocalHostNames()).plan(doc2, bundle: "team")
        XCTAssertEqual(plan2.refusedHostKeys, [.init(doc2.hostKeys[0], reason: "[shared.example]:2222 is the address of your host 'mine'")])
    }

    /// A bundle's jump host is one of its own: one of another bundle's (or the user's) is
    /// not taken over; the host that names it is refused, and so is one that jumps through it.
    func testJumpHostsResolveWithinTheBundle() throws {
        let db = try TemporaryDatabase()
        let bundles = BundleStore(database: db.database, localNames: LocalHostNames())
        try bundles.apply(try bundles.plan(BundleDocument(name: "contractor", serial: 1, hosts: [BundleHost(name: "bastion", hostname: "b.contractor.example")]),
                                           bundle: "contractor"))
        let team = BundleDocument(name: "team", serial: 1, hosts: [
            BundleHost(name: "bastion", hostname: "b.team.example"),
            BundleHost(name: "app", hostname: "app.team.example", jump: "bastion"),
            BundleHost(name: "deep", hostname: "deep.team.example", jump: "app"),
            BundleHost(name: "ok", hostname: "ok.team.example")])
        let plan = try bundles.plan(team, bundle: "team")
        XCTAssertEqual(plan.clashes.map(\.name), ["bastion"])
        XCTAssertEqual(plan.refusedHosts, [.init("app", reason: "its jump host 'bastion' is not the bundle's: it is a host from bundle 'contractor'"),
                                           .init("deep", reason: "its jump host 'app' is not applied")])
        XCTAssertEqual(plan.hostsToAdd.map(\.name), ["ok"])
        try bundles.apply(plan)
        XCTAssertNil(try db.database.host(named: "app"))
    }

    /// Names ssh resolves on this machine without a dot are the user's alone.
    func testNamesThisMachineResolvesAreRefusedToBundlesAndTailscale() throws {
        XCTAssertEqual(Set(LocalHostNames.hostsFileNames("127.0.0.1 localhost\n# 10.0.0.1 gone\n10.0.0.2\tnas nas.lan # box\n")),
                       ["localhost", "nas", "nas.lan"])
        let local = LocalHostNames(["nas", "workstation"])
        XCTAssertTrue(LocalHostNames.current().contains("localhost"))
        let db = try TemporaryDatabase()
        let bundles = BundleStore(database: db.database, localNames: local)
        let plan = try bundles.plan(BundleDocument(name: "team", serial: 1, hosts: [
            BundleHost(name: "localhost", hostname: "evil.example"),
            BundleHost(name: "NAS", hostname: "evil.example"),
            BundleHost(name: "fine", hostname: "fine.example", aliases: ["workstation"])]), bundle: "team")
        XCTAssertEqual(plan.refusedHosts.map(\.what), ["NAS", "fine", "localhost"])
        XCTAssertTrue(plan.refusedHosts.allSatisfy { $0.reason.hasSuffix("is a name this machine resolves itself (localhost, /etc/hosts or its own hostname)") })
        XCTAssertNil(TrustAuthority.nameRefusal("localhost", origin: .user, localNames: local), "the user may")

        // Tailscale: a device whose short name is one is skipped (or renamed), its keys
        // still pinned for its own MagicDNS name.
        var options = TailscaleImportOptions()
        options.localNames = local
        var nodes = [TailscaleImportPlannerTests.device("n1", dns: "nas.tail1.ts.net", ips: ["100.64.0.9"], keys: [Self.key(Self.keyA)])]
        var report = try TailscaleImporter(connection: db.connection).run(format: .status, tailnet: Self.tailnet, nodes: &nodes, options: options)
        XCTAssertEqual(report.hosts.map(\.action), [.skipped])
        XCTAssertTrue(report.hosts.first?.reason?.contains("is a name this machine resolves itself") ?? false, "\(report.hosts)")
        options.renameClashes = true
        nodes = [TailscaleImportPlannerTests.device("n1", dns: "nas.tail1.ts.net", ips: ["100.64.0.9"], keys: [Self.key(Self.keyA)])]
        report = try TailscaleImporter(connection: db.connection).run(format: .status, tailnet: Self.tailnet, nodes: &nodes, options: options)
        XCTAssertEqual(report.hosts.map(\.name), ["nas-2"])
    }

    /// A Tailscale document pins no key for an address the user's host points at; the
    /// report says why.
    func testTailscaleDoesNotPinTheUsersHost() throws {
        let db = try TemporaryDatabase()
        try db.database.addHost(NewHost(name: "mine", hostname: "100.64.0.9"))
        var nodes = [TailscaleImportPlannerTests.device("n1", dns: "web.tail1.ts.net", ips: ["100.64.0.9"], keys: [Self.key(Self.keyA)])]
        let report = try TailscaleImporter(connection: db.connection).run(format: .status, tailnet: Self.tailnet, nodes: &nodes,
                                                                           options: TailscaleImportOptions())
        XCTAssertEqual(report.keyProblems.map(\.reason), ["100.64.0.9 is the address of your host 'mine'"])
        let store = KnownHostsStore(database: db.database)
        XCTAssertEqual(try store.check(HostLookupName(host: "100.64.0.9"), presented: .plain(Self.key(Self.keyA))).decision.status, .unknown)
        XCTAssertEqual(try store.check(HostLookupName(host: "web.tail1.ts.net"), presented: .plain(Self.key(Self.keyA))).decision.status, .trusted)
    }

    /// A writer with no hosts of its own (approve, revoke, a known_hosts import) writes only
    /// the user's trust.
    func testDirectWritersAreTheUsers() throws {
        let db = try TemporaryDatabase()
        let store = KnownHostsStore(database: db.database)
        XCTAssertThrowsError(try store.approve(HostLookupName(host: "x.example"), key: Self.key(Self.keyA), source: "bundle:team"))
        XCTAssertThrowsError(try store.revoke(HostLookupName(host: "x.example"), key: Self.key(Self.keyA), source: "tailscale"))
        XCTAssertThrowsError(try store.importKnownHosts(Array("x.example ssh-ed25519 \(Self.keyA)\n".utf8), source: "bundle:team"))
        XCTAssertEqual(try store.all().count, 0)
        XCTAssertTrue(try store.approve(HostLookupName(host: "x.example"), key: Self.key(Self.keyA), source: "manual"))
    }

    /// A bundle that changes the host keys it pins for a host takes the stored password
    /// away, as one that moves the host does; one that changes nothing keeps it.
    func testAChangedPinnedKeyTakesThePasswordAway() throws {
        let db = try TemporaryDatabase()
        let bundles = BundleStore(database: db.database, localNames: LocalHostNames())
        func doc(_ serial: UInt64, _ key: String) -> BundleDocument {
            BundleDocument(name: "team", serial: serial, hosts: [BundleHost(name: "app", hostname: "app.team.example")],
                           hostKeys: ["app.team.example ssh-ed25519 \(key)"])
        }
        try bundles.apply(try bundles.plan(doc(1, Self.keyA), bundle: "team"))
        try db.connection.execute("UPDATE hosts SET auth = 'password' WHERE name = 'app'")
        let uuid = try XCTUnwrap(db.database.host(named: "app")).uuid
        let same = try bundles.plan(doc(2, Self.keyA), bundle: "team")
        XCTAssertTrue(same.removedPasswords.isEmpty)
        try bundles.apply(same)
        XCTAssertEqual(try db.database.host(named: "app")?.auth, .password)
        let swapped = try bundles.plan(doc(3, Self.keyB), bundle: "team")
        XCTAssertEqual(swapped.removedPasswords, [.init(host: "app", uuid: uuid, keyChanged: true)])
        try bundles.apply(swapped)
        XCTAssertNotEqual(try db.database.host(named: "app")?.auth, .password)
    }
}
