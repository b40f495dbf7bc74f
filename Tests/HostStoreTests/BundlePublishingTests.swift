// Publishing a bundle safely, in a real database file: the serial last exported or applied
// is remembered per bundle name; what an export drops of the bundle before is counted
// (entries, not line spellings); a trusted signer republishes what the bundle brought, never
// another bundle's; unsubscribing removes what the bundle brought and nothing else; the
// overview `bundle list` shows.
@testable import HostStore
import ImportFormats
import KeyFormats
import XCTest
import TestSupport

final class BundlePublishingTests: DatabaseTestCase {
    var bundles: BundleStore!

    static let keyA = BundleStoreTests.keyA
    static let keyB = BundleStoreTests.keyB

    override func setUpWithError() throws {
        try super.setUpWithError()
        bundles = BundleStore(database: db)
    }

    override func tearDown() {
        bundles = nil
        super.tearDown()
    }

    func team(serial: UInt64) -> BundleDocument {
        BundleDocument(name: "team", serial: serial,
                       hosts: [BundleHost(name: "api", hostname: "api.example.com", user: "ops", tags: ["team"]),
                               BundleHost(name: "db", hostname: "db.example.com", tags: ["team"])],
                       snippets: [BundleSnippet(name: "logs", command: "journalctl -f")],
                       hostKeys: ["api.example.com,db.example.com ssh-ed25519 \(Self.keyA)"])
    }

    func testTheKnownSerialIsTheHighestExportedOrApplied() throws {
        XCTAssertEqual(try bundles.knownSerial(bundle: "team"), 0)
        try bundles.recordExported(bundle: "team", serial: 5)
        try bundles.recordExported(bundle: "TEAM", serial: 3)
        XCTAssertEqual(try bundles.exportedSerial(bundle: "team"), 5, "a lower serial never replaces a higher one")
        XCTAssertEqual(try bundles.knownSerial(bundle: "team"), 5)
        try bundles.apply(try bundles.plan(team(serial: 7), bundle: "team"))
        XCTAssertEqual(try bundles.knownSerial(bundle: "team"), 7, "the serial of an applied bundle is learnt")
        XCTAssertEqual(try bundles.knownSerial(bundle: "other"), 0)
    }

    func testRemovalsCountHostsSnippetsAndEntriesNotLineSpellings() throws {
        let old = team(serial: 1)
        var same = old
        same.hostKeys = ["db.example.com ssh-ed25519 \(Self.keyA)", "api.example.com ssh-ed25519 \(Self.keyA)"]
        XCTAssertTrue(BundleStore.removals(from: old, to: same).isEmpty, "one line with two names is two entries")
        var fewer = same
        fewer.hosts.removeAll { $0.name == "db" }
        fewer.hostKeys = ["api.example.com ssh-ed25519 \(Self.keyA)"]
        fewer.snippets = []
        XCTAssertEqual(BundleStore.removals(from: old, to: fewer), BundleRemovals(hosts: ["db"], snippets: ["logs"], hostKeys: 1))
    }

    func testATrustedSignerRepublishesWhatTheBundleBroughtNeverAnotherBundles() throws {
        XCTAssertNil(try bundles.broughtDocument(bundle: "team"))
        try bundles.apply(try bundles.plan(team(serial: 4), bundle: "team"))
        try bundles.apply(try bundles.plan(BundleDocument(name: "other", serial: 1, hosts: [BundleHost(name: "x", hostname: "x.example.com")],
                                                          hostKeys: ["x.example.com ssh-ed25519 \(Self.keyB)"]), bundle: "other"))
        try db.addHost(NewHost(name: "mine", hostname: "mine.example.com", tags: ["team"]))

        let brought = try XCTUnwrap(bundles.broughtDocument(bundle: "team"))
        XCTAssertEqual(brought.serial, 4)
        XCTAssertEqual(brought.hosts.map(\.name).sorted(), ["api", "db"])
        XCTAssertEqual(brought.snippets.map(\.name), ["logs"])

        let plain = try bundles.document(name: "team", serial: 5)
        XCTAssertEqual(plain.hosts.map(\.name), ["mine"], "without republish no bundle's host is published")
        let removed = BundleStore.removals(from: brought, to: plain)
        XCTAssertEqual(removed, BundleRemovals(hosts: ["api", "db"], snippets: ["logs"], hostKeys: 2))

        let again = try bundles.document(name: "team", selection: BundleExportSelection(tags: ["team"], republish: true), serial: 5)
        XCTAssertEqual(again.hosts.map(\.name).sorted(), ["api", "db", "mine"])
        XCTAssertEqual(again.snippets.map(\.name), ["logs"])
        XCTAssertTrue(BundleStore.removals(from: brought, to: again).isEmpty)
        XCTAssertFalse(again.hosts.contains { $0.name == "x" }, "another bundle's host is never republished")
        XCTAssertFalse(again.hostKeys.contains { $0.contains(Self.keyB) }, "nor its host keys")
        XCTAssertEqual(try bundles.document(name: "other", selection: BundleExportSelection(republish: true), serial: 2).hosts.map(\.name).sorted(),
                       ["mine", "x"], "republishing 'other' carries its own host, never team's")

        let anonymous = try bundles.document(name: "team", selection: BundleExportSelection(omitUsers: true, republish: true), serial: 5)
        XCTAssertTrue(anonymous.hosts.allSatisfy { $0.user == nil }, "--no-user publishes no user")
    }

    func testAHostSetToOmitItsUserIsPublishedWithoutItAndOnlyThatHost() throws {
        let web = try db.addHost(NewHost(name: "web", hostname: "web.example.com", user: "alice", tags: ["team"]))
        try db.addHost(NewHost(name: "db", hostname: "db.example.com", user: "postgres", tags: ["team"]))
        XCTAssertEqual(try bundles.userPublishing(hostID: web.id), .publish)
        try bundles.setUserPublishing(hostID: web.id, .omit)
        try bundles.setUserPublishing(hostID: web.id, .omit)
        XCTAssertEqual(try bundles.userPublishing(hostID: web.id), .omit)
        func users() throws -> [String: String] {
            let doc = try bundles.document(name: "team", selection: BundleExportSelection(tags: ["team"]), serial: 1)
            return Dictionary(uniqueKeysWithValues: doc.hosts.map { ($0.name, $0.user ?? "-") })
        }
        XCTAssertEqual(try users(), ["web": "-", "db": "postgres"])
        XCTAssertEqual(try db.host(named: "web")?.user, "alice", "the host keeps its user")

        try bundles.setUserPublishing(hostID: web.id, .publish)
        XCTAssertEqual(try users(), ["web": "alice", "db": "postgres"])

        try bundles.setUserPublishing(hostID: web.id, .omit)
        try db.removeHost("web")
        XCTAssertEqual(try db.connection.query("SELECT count(*) FROM bundle_user_omitted").first?.int(0), 0, "goes with the host")
    }

    func testATagPublishesTheSnippetsWithItAndNoOther() throws {
        try db.addHost(NewHost(name: "web", hostname: "web.example.com", tags: ["team"]))
        try db.addSnippet(name: "logs", command: "journalctl -f", description: nil, tags: ["team", "ops"])
        try db.addSnippet(name: "mine", command: "uptime", description: nil)
        try db.addSnippet(name: "later", command: "df -h", description: nil)
        XCTAssertThrowsError(try db.addSnippet(name: "bad", command: "ls", description: nil, tags: ["no spaces"]))
        XCTAssertNil(try db.snippet(named: "bad"), "a bad tag stores nothing")
        XCTAssertEqual(try db.snippet(named: "logs")?.tags, ["team", "ops"])
        func published(_ selection: BundleExportSelection) throws -> [String] {
            try bundles.document(name: "team", selection: selection, serial: 1).snippets.map(\.name)
        }
        XCTAssertEqual(try published(BundleExportSelection(tags: ["TEAM"])), ["logs"])
        XCTAssertEqual(try published(BundleExportSelection()), [], "no snippet unless chosen")
        XCTAssertEqual(try published(BundleExportSelection(tags: ["team"], snippets: ["mine"])), ["logs", "mine"])

        try db.tagSnippet("later", add: ["team"])
        try db.tagSnippet("logs", add: [], remove: ["Team"])
        XCTAssertThrowsError(try db.tagSnippet("logs", add: ["x"], remove: ["absent"]))
        XCTAssertEqual(try db.snippet(named: "logs")?.tags, ["ops"], "a refused change changes nothing")
        XCTAssertEqual(try published(BundleExportSelection(tags: ["team"])), ["later"])

        // A tagged snippet another bundle brought is never published.
        try bundles.apply(try bundles.plan(BundleDocument(name: "other", serial: 1, snippets: [BundleSnippet(name: "theirs", command: "w")]), bundle: "other"))
        try db.tagSnippet("theirs", add: ["team"])
        XCTAssertEqual(try published(BundleExportSelection(tags: ["team"])), ["later"])
        try db.removeSnippet("later")
        XCTAssertEqual(try db.connection.query("SELECT count(*) FROM snippet_tags WHERE tag = 'team'").first?.int(0), 1, "tags go with the snippet")
    }

    func testARemovalTakesOnlyWhatTheBundleBroughtAndKeepsItsSerial() throws {
        try bundles.apply(try bundles.plan(team(serial: 3), bundle: "team"))
        try db.addHost(NewHost(name: "mine", hostname: "mine.example.com"))
        try db.addSnippet(name: "up", command: "uptime", description: nil)
        try KnownHostsStore(database: db).approve(HostLookupName(host: "mine.example.com"), key: BundleStoreTests.key(Self.keyB), source: "tofu")

        let plan = try XCTUnwrap(bundles.planRemoval(bundle: "team"))
        XCTAssertEqual(plan.hostsToRemove.sorted(), ["api", "db"])
        XCTAssertEqual(plan.snippetsToRemove, ["logs"])
        XCTAssertEqual(plan.hostKeysToRemove.count, 2)
        XCTAssertTrue(plan.hostsToAdd.isEmpty && plan.hostKeysToTrust.isEmpty)
        try bundles.apply(plan)
        XCTAssertEqual(try db.hosts().map(\.name), ["mine"])
        XCTAssertEqual(try db.snippets().map(\.name), ["up"])
        XCTAssertEqual(try KnownHostsStore(database: db).all().map(\.source), ["tofu"])
        XCTAssertEqual(try bundles.appliedSerial(bundle: "team"), 3, "an older bundle is still refused after")
        XCTAssertThrowsError(try bundles.plan(team(serial: 2), bundle: "team"))
        XCTAssertNil(try bundles.planRemoval(bundle: "never"))
    }

    func testAHostOfYoursThatJumpsThroughABundleHostStopsTheRemoval() throws {
        try bundles.apply(try bundles.plan(team(serial: 1), bundle: "team"))
        try db.addHost(NewHost(name: "inner", hostname: "10.1.1.1", jump: "api"))
        XCTAssertThrowsError(try bundles.planRemoval(bundle: "team")) { XCTAssertEqual(($0 as? HostStoreError)?.kind, .rejected) }
        XCTAssertEqual(try db.hosts().count, 3, "nothing was removed")
    }

    func testTheOverviewListsEveryBundleTheDatabaseKnows() throws {
        try bundles.trust(bundle: "team", signer: BundleStoreTests.key(Self.keyA))
        try bundles.subscribe(bundle: "team", url: "ssh://git.example/team.git")
        try bundles.apply(try bundles.plan(team(serial: 2), bundle: "team"))
        try bundles.recordExported(bundle: "lab", serial: 9)
        let list = try bundles.overview()
        XCTAssertEqual(list.map(\.name), ["lab", "team"])
        XCTAssertEqual(list[0].exportedSerial, 9)
        XCTAssertNil(list[0].url)
        XCTAssertEqual(list[1].url, "ssh://git.example/team.git")
        XCTAssertEqual(list[1].signers, [BundleStoreTests.key(Self.keyA)])
        XCTAssertEqual(list[1].appliedSerial, 2)
        XCTAssertNotNil(list[1].appliedAt)
    }
}
