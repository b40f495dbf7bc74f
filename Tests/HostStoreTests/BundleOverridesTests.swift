// A subscriber's own settings on a bundle's hosts, in a real database file (issue 33):
// `edit` records each changed field as an override with the bundle's value, an update keeps
// the subscriber's value (and says so when the bundle's changed), a host an update does not
// change is not listed as updated, and a reset returns a field to the bundle's value.
@testable import HostStore
import ImportFormats
import KeyFormats
import XCTest
import TestSupport

final class BundleOverridesTests: DatabaseTestCase {
    var bundles: BundleStore!

    override func setUpWithError() throws {
        try super.setUpWithError()
        bundles = BundleStore(database: db)
    }

    override func tearDown() {
        bundles = nil
        super.tearDown()
    }

    func team(serial: UInt64, user: String = "ops", note: String? = nil) -> BundleDocument {
        BundleDocument(name: "team", serial: serial,
                       hosts: [BundleHost(name: "api", hostname: "api.example.com", user: user, tags: ["team"], note: note, key: "team-key"),
                               BundleHost(name: "db", hostname: "db.example.com", tags: ["team"])])
    }

    func apply(_ doc: BundleDocument) throws -> BundlePlan {
        let plan = try bundles.plan(doc, bundle: "team")
        try bundles.apply(plan)
        return plan
    }

    func testTheSubscribersFieldsSurviveUpdatesAndAResetReturnsThem() throws {
        _ = try apply(team(serial: 1))
        _ = try KeyStore(database: db).insert(NewKey(uuid: UUIDString.random(), name: "mine", publicKey: BundleStoreTests.key(BundleStoreTests.keyA),
                                                     comment: "", format: "openssh"))
        var changes = HostChanges()
        changes.user = "me"
        changes.key = .set("mine")
        changes.port = 2200
        changes.addTags = ["local"]
        try db.editHost("api", changes)
        let edited = try XCTUnwrap(db.host(named: "api"))
        XCTAssertEqual(edited.overrides, [
            BundleOverride(field: .user, bundleValue: "ops", localValue: "me"),
            BundleOverride(field: .key, bundleValue: nil, localValue: "mine"),
            BundleOverride(field: .port, bundleValue: "22", localValue: "2200"),
            BundleOverride(field: .tags, bundleValue: "team", localValue: "local, team"),
        ])
        XCTAssertEqual(try db.hosts().first { $0.name == "api" }?.overrides, edited.overrides, "the listing shows them too")
        XCTAssertEqual(try db.host(named: "db")?.overrides, [], "a host not edited has none")

        // A new serial that does not change api: not listed, nothing reported, all kept.
        let quiet = try apply(team(serial: 2))
        XCTAssertEqual(quiet.hostsToUpdate.map(\.name), [])
        XCTAssertEqual(quiet.overridesKept, [])
        XCTAssertEqual(quiet.missingKeys, [], "the subscriber's key stands in for the bundle's missing one")
        // The bundle changes the user and the note: the user stays the subscriber's, the note follows.
        let next = try apply(team(serial: 3, user: "deploy", note: "primary"))
        XCTAssertEqual(next.hostsToUpdate.map(\.name), ["api"])
        XCTAssertEqual(next.overridesKept, [.init(host: "api", field: "user", bundleValue: "deploy", localValue: "me")])
        let api = try XCTUnwrap(db.host(named: "api"))
        XCTAssertEqual([api.user, api.key, api.note], ["me", "mine", "primary"])
        XCTAssertEqual(api.port, 2200)
        XCTAssertEqual(api.tags, ["local", "team"])
        XCTAssertEqual(api.auth, .key)
        XCTAssertEqual(api.overrides.first { $0.field == .user }?.bundleValue, "deploy", "the bundle's new value is recorded")

        // Reset: back to the bundle's values; the override goes.
        try db.editHost("api", try db.resetChanges(host: "api", fields: [.user, .port, .tags]))
        let reset = try XCTUnwrap(db.host(named: "api"))
        XCTAssertEqual([reset.user, String(reset.port)], ["deploy", "22"])
        XCTAssertEqual(reset.tags, ["team"])
        XCTAssertEqual(reset.overrides.map(\.field), [.key])
        XCTAssertThrowsError(try db.resetChanges(host: "api", fields: [.note])) { XCTAssertEqual(($0 as? HostStoreError)?.kind, .rejected) }
        XCTAssertThrowsError(try db.resetChanges(host: "nope", fields: [.user]))
        // The bundle's key is not here: a reset takes the key off, and ends the override.
        try db.editHost("api", try db.resetChanges(host: "api", fields: [.key]))
        XCTAssertNil(try db.host(named: "api")?.key)
        XCTAssertEqual(try db.host(named: "api")?.overrides, [])

        // Editing a host of the user's own records nothing; a host the bundle drops takes its overrides with it.
        try db.addHost(NewHost(name: "own", hostname: "own.example.com"))
        var user = HostChanges()
        user.user = "x"
        try db.editHost("own", user)
        try db.editHost("db", user)
        XCTAssertEqual(try db.connection.query("SELECT count(*) FROM bundle_overrides").first?.int(0), 1)
        var dropped = team(serial: 4)
        dropped.hosts.removeAll { $0.name == "db" }
        _ = try apply(dropped)
        XCTAssertEqual(try db.connection.query("SELECT count(*) FROM bundle_overrides").first?.int(0), 0)
    }
}
