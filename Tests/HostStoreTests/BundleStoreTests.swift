// Team bundles in a real database file: plan and apply (add, update, drop), clashes with
// hosts and snippets of other sources, host keys through the trust core (changed keys
// reported and not written, @revoked revoking), serial rules, one transaction, export.
@testable import HostStore
import ImportFormats
import KeyFormats
import XCTest
import TestSupport

final class BundleStoreTests: DatabaseTestCase {
    var bundles: BundleStore!
    var knownHosts: KnownHostsStore!

    static let keyA = "AAAAC3NzaC1lZDI1NTE5AAAAIK9ks7jkua5YWIwByRnnnc6UPJQWI75O0e/UJdPYU1JI"
    static let keyB = "AAAAC3NzaC1lZDI1NTE5AAAAIElLfGy9beTbZ0Aa7UXkYJIiX86wEpxVFr6a+Yx84s40"
    static func key(_ b64: String) -> PublicKey { try! PublicKey(blob: Base64.decode(Array(b64.utf8))!) }

    override func setUpWithError() throws {
        try super.setUpWithError()
        bundles = BundleStore(database: db)
        knownHosts = KnownHostsStore(database: db)
    }

    override func tearDown() {
        bundles = nil
        knownHosts = nil
        super.tearDown()
    }

    /// Rows of every table a bundle may write.
    func counts() throws -> [String: Int64] {
        var out: [String: Int64] = [:]
        for t in ["hosts", "host_tags", "host_aliases", "snippets", "bundle_snippets", "known_hosts", "host_key_events", "bundle_applied"] {
            out[t] = try db.connection.query("SELECT count(*) FROM \(t)").first?.int(0)
        }
        return out
    }

    func team(serial: UInt64 = 1) -> BundleDocument {
        BundleDocument(
            name: "team", serial: serial,
            hosts: [BundleHost(name: "bastion", hostname: "bastion.example.com", user: "ops", tags: ["edge"]),
                    BundleHost(name: "db1", hostname: "db1.example.com", port: 2222, user: "deploy", tags: ["db", "prod"],
                               aliases: ["database"], jump: "bastion", note: "primary", key: "team-key")],
            snippets: [BundleSnippet(name: "logs", command: "journalctl -f", description: "follow")],
            hostKeys: ["bastion.example.com ssh-ed25519 \(Self.keyA)",
                       "[db1.example.com]:2222 ssh-ed25519 \(Self.keyA)",
                       "@revoked bastion.example.com ssh-ed25519 \(Self.keyB)",
                       "@cert-authority [db1.example.com]:2222 ssh-ed25519 \(Self.keyB)"])
    }

    func status(_ host: String, port: Int = 22, _ key: String) throws -> HostKeyStatus {
        try knownHosts.check(HostLookupName(host: host, port: port), presented: .plain(Self.key(key))).decision.status
    }

    func testApplyAddsThenUpdateChangesAndDropsOnlyWhatTheBundleBrought() throws {
        // The user's own entry for an unrelated host stays whatever the bundle does.
        try knownHosts.approve(HostLookupName(host: "mine.example"), key: Self.key(Self.keyA), source: "tofu")
        let plan = try bundles.plan(team(), bundle: "team")
        XCTAssertEqual(plan.hostsToAdd.map(\.name), ["bastion", "db1"])
        XCTAssertEqual(plan.hostsToAdd[1].key, nil, "no key named team-key here")
        XCTAssertEqual(plan.missingKeys, [.init(host: "db1", key: "team-key")])
        XCTAssertEqual(plan.snippetsToAdd.map(\.name), ["logs"])
        XCTAssertEqual(plan.hostKeysToTrust.count, 3)
        XCTAssertEqual(plan.hostKeysToRevoke, ["@revoked bastion.example.com ssh-ed25519 \(Self.keyB)"])
        XCTAssertTrue(plan.clashes.isEmpty && plan.changedHostKeys.isEmpty)
        XCTAssertTrue(plan.refusedHosts.isEmpty && plan.refusedHostKeys.isEmpty, "\(plan.refusedHostKeys)")
        XCTAssertNil(plan.previousSerial)
        XCTAssertEqual(try counts()["hosts"], 0, "a plan writes nothing")
        try bundles.apply(plan)

        let db1 = try XCTUnwrap(db.host(named: "database"))
        XCTAssertEqual(db1.name, "db1")
        XCTAssertEqual(db1.source, "bundle:team")
        XCTAssertEqual(db1.jump, "bastion")
        XCTAssertEqual(db1.tags, ["db", "prod"])
        XCTAssertEqual(db1.port, 2222)
        XCTAssertNil(db1.key)
        XCTAssertEqual(try db.snippet(named: "logs")?.command, "journalctl -f")
        XCTAssertEqual(try status("bastion.example.com", Self.keyA), .trusted)
        XCTAssertEqual(try status("db1.example.com", port: 2222, Self.keyA), .trusted)
        XCTAssertEqual(try status("bastion.example.com", Self.keyB), .revoked)
        XCTAssertTrue(try knownHosts.knownKeyTypes(HostLookupName(host: "db1.example.com", port: 2222)).certificateAuthority)
        XCTAssertEqual(try bundles.appliedSerial(bundle: "team"), 1)
        XCTAssertEqual(try bundles.appliedDigest(bundle: "team")?.count, 64)

        // The same document again: nothing to change.
        let again = try bundles.plan(team(), bundle: "team")
        XCTAssertTrue(again.changesNothing, "\(again)")
        let before = try counts()
        try bundles.apply(again)
        XCTAssertEqual(try counts(), before)

        // With the key present, the next serial attaches it.
        _ = try KeyStore(database: db).insert(NewKey(uuid: UUIDString.random(), name: "team-key", publicKey: Self.key(Self.keyB), comment: "", format: "openssh"))
        XCTAssertEqual(try bundles.plan(team(serial: 2), bundle: "team").hostsToUpdate.map(\.name), ["db1"])

        // The user stores a password for bastion (the vault item is the caller's to remove).
        try db.connection.execute("UPDATE hosts SET auth = 'password' WHERE name = 'bastion'")
        let bastionUUID = try XCTUnwrap(db.host(named: "bastion")).uuid
        // Serial 3: bastion, its key line, the revocation and the snippet dropped; db1 moved.
        var next = team(serial: 3)
        next.hosts = [BundleHost(name: "db1", hostname: "db1.example.com", port: 2222, tags: ["db"], key: "team-key"),
                      BundleHost(name: "web", hostname: "web.example.com")]
        next.snippets = []
        next.hostKeys = ["[db1.example.com]:2222 ssh-ed25519 \(Self.keyA)", "@cert-authority [db1.example.com]:2222 ssh-ed25519 \(Self.keyB)"]
        let update = try bundles.plan(next, bundle: "team")
        XCTAssertEqual(update.previousSerial, 1)
        XCTAssertEqual(update.hostsToAdd.map(\.name), ["web"])
        XCTAssertEqual(update.hostsToUpdate.map(\.name), ["db1"])
        XCTAssertEqual(update.hostsToRemove, ["bastion"])
        XCTAssertEqual(update.removedPasswords, [.init(host: "bastion", uuid: bastionUUID)])
        XCTAssertEqual(update.snippetsToRemove, ["logs"])
        XCTAssertEqual(Set(update.hostKeysToRemove), ["bastion.example.com ssh-ed25519 \(Self.keyA)", "@revoked bastion.example.com ssh-ed25519 \(Self.keyB)"])
        XCTAssertTrue(update.hostKeysToTrust.isEmpty)
        try bundles.apply(update)
        XCTAssertNil(try db.host(named: "bastion"))
        XCTAssertNil(try db.host(named: "database"), "the dropped alias went with the update")
        let moved = try XCTUnwrap(db.host(named: "db1"))
        XCTAssertEqual([moved.port, moved.jump == nil ? 0 : 1], [2222, 0])
        XCTAssertEqual(moved.key, "team-key")
        XCTAssertEqual(moved.auth, .key)
        XCTAssertNil(try db.snippet(named: "logs"))
        XCTAssertEqual(try status("bastion.example.com", Self.keyA), .unknown)
        XCTAssertEqual(try status("bastion.example.com", Self.keyB), .unknown, "the dropped @revoked line no longer revokes")
        XCTAssertEqual(try status("mine.example", Self.keyA), .trusted, "the user's own entry stays")
        XCTAssertEqual(try knownHosts.all().filter { $0.source == "bundle:team" }.count, 2)
        XCTAssertEqual(try bundles.appliedSerial(bundle: "team"), 3)
    }

    func testClashesWithManualAndTailscaleHostsAreReportedAndLeftAlone() throws {
        try db.addHost(NewHost(name: "bastion", hostname: "mine.example", aliases: ["b"]))
        try db.addHost(NewHost(name: "ts1", hostname: "100.64.0.1"))
        try db.connection.execute("UPDATE hosts SET source = 'tailscale', source_id = 'n1' WHERE name = 'ts1'")
        try db.addSnippet(name: "logs", command: "tail -f /var/log/syslog", description: nil)
        var doc = team()
        doc.hosts[1].jump = nil
        doc.hosts.append(BundleHost(name: "ts1", hostname: "evil.example"))
        doc.hosts.append(BundleHost(name: "web", hostname: "web.example", aliases: ["B"]))
        let plan = try bundles.plan(doc, bundle: "team")
        XCTAssertEqual(plan.clashes, [.init(kind: .host, name: "bastion", owner: "manual"), .init(kind: .host, name: "ts1", owner: "tailscale"),
                                      .init(kind: .host, name: "web", owner: "manual"), .init(kind: .snippet, name: "logs", owner: "manual")])
        XCTAssertEqual(plan.hostsToAdd.map(\.name), ["db1"])
        XCTAssertTrue(plan.snippetsToAdd.isEmpty)
        try bundles.apply(plan)
        XCTAssertEqual(try db.host(named: "bastion")?.hostname, "mine.example")
        XCTAssertEqual(try db.host(named: "bastion")?.source, "manual")
        XCTAssertEqual(try db.host(named: "ts1")?.hostname, "100.64.0.1")
        XCTAssertEqual(try db.snippet(named: "logs")?.command, "tail -f /var/log/syslog")
        // A later serial without them removes nothing of the user's.
        var next = team(serial: 2)
        next.hosts = []
        next.snippets = []
        let drop = try bundles.plan(next, bundle: "team")
        XCTAssertEqual(drop.hostsToRemove, ["db1"])
        XCTAssertTrue(drop.snippetsToRemove.isEmpty)
        try bundles.apply(drop)
        XCTAssertEqual(try db.hosts().map(\.name), ["bastion", "ts1"])
        XCTAssertEqual(try db.snippets().map(\.name), ["logs"])

        // A host another bundle brought is a clash too, and export leaves it out.
        var other = BundleDocument(name: "other", serial: 1, hosts: [BundleHost(name: "shared", hostname: "s.example")],
                                   snippets: [BundleSnippet(name: "uptime", command: "uptime")])
        try bundles.apply(try bundles.plan(other, bundle: "other"))
        other.name = "team"
        other.serial = 3
        let second = try bundles.plan(other, bundle: "team")
        XCTAssertEqual(second.clashes, [.init(kind: .host, name: "shared", owner: "bundle:other"), .init(kind: .snippet, name: "uptime", owner: "bundle:other")])
        let exported = try bundles.document(name: "mine", selection: BundleExportSelection(snippets: ["logs"]), serial: 1)
        XCTAssertEqual(exported.hosts.map(\.name).sorted(), ["bastion", "ts1"])
        XCTAssertEqual(exported.snippets.map(\.name), ["logs"])
        XCTAssertEqual(try bundles.document(name: "mine", serial: 1).snippets, [], "no snippet unless chosen")
        XCTAssertThrowsError(try bundles.document(name: "mine", selection: BundleExportSelection(snippets: ["uptime"]), serial: 1),
                             "another bundle's snippet is never published") { XCTAssertEqual(($0 as? HostStoreError)?.kind, .rejected) }
        XCTAssertThrowsError(try bundles.document(name: "mine", selection: BundleExportSelection(snippets: ["nope"]), serial: 1)) {
            XCTAssertEqual(($0 as? HostStoreError)?.kind, .notFound)
        }
    }

    func testAKeyThatDisagreesWithATrustedOneIsReportedAsChangedAndNotWritten() throws {
        try knownHosts.approve(HostLookupName(host: "bastion.example.com"), key: Self.key(Self.keyA), source: "tofu")
        try knownHosts.approve(HostLookupName(host: "db1.example.com", port: 2222), key: Self.key(Self.keyA), source: "tofu")
        let hashed = HashedHostName(hashing: "[db1.example.com]:2222", salt: Array(repeating: 7, count: 20)).text
        var doc = team()
        doc.hostKeys = ["bastion.example.com ssh-ed25519 \(Self.keyB)",       // disagrees
                        "\(hashed) ssh-ed25519 \(Self.keyB)",                  // disagrees, hidden in a hash
                        "[db1.example.com]:2222 ssh-ed25519 \(Self.keyA)"]     // agrees: the user's entry
        let before = try counts()["known_hosts"]
        let plan = try bundles.plan(doc, bundle: "team")
        XCTAssertEqual(plan.changedHostKeys.map(\.host), ["bastion.example.com", "[db1.example.com]:2222"])
        XCTAssertEqual(plan.changedHostKeys.first?.trusted, [Self.key(Self.keyA).sha256Fingerprint])
        XCTAssertEqual(plan.changedHostKeys.first?.offered, Self.key(Self.keyB).sha256Fingerprint)
        XCTAssertTrue(plan.hostKeysToTrust.isEmpty, "\(plan.hostKeysToTrust)")
        try bundles.apply(plan)
        XCTAssertEqual(try counts()["known_hosts"], before)
        XCTAssertEqual(try status("bastion.example.com", Self.keyB), .changed)
        XCTAssertEqual(try status("db1.example.com", port: 2222, Self.keyB), .changed)
        // The agreeing line was the user's already: dropping it later removes nothing.
        var next = doc
        next.serial = 2
        next.hostKeys = []
        XCTAssertTrue(try bundles.plan(next, bundle: "team").hostKeysToRemove.isEmpty)
        try bundles.apply(try bundles.plan(next, bundle: "team"))
        XCTAssertEqual(try status("db1.example.com", port: 2222, Self.keyA), .trusted)
    }

    /// A bundle revokes keys for its own hosts; never one the user trusts (TrustAuthority).
    func testARevokedLineRevokesOnlyWhereTheUserTrustsNothing() throws {
        let doc = BundleDocument(name: "team", serial: 1, hosts: [BundleHost(name: "app", hostname: "app.example")],
                                 hostKeys: ["@revoked app.example ssh-ed25519 \(Self.keyB)"])
        let plan = try bundles.plan(doc, bundle: "team")
        XCTAssertEqual(plan.hostKeysToRevoke, doc.hostKeys)
        try bundles.apply(plan)
        XCTAssertEqual(try status("app.example", Self.keyB), .revoked)
        XCTAssertEqual(try knownHosts.events(forHost: "app.example").last?.event, "revoked")

        try knownHosts.approve(HostLookupName(host: "app2.example"), key: Self.key(Self.keyB), source: "tofu")
        let doc2 = BundleDocument(name: "team", serial: 2, hosts: [BundleHost(name: "app2", hostname: "app2.example")],
                                  hostKeys: ["@revoked app2.example ssh-ed25519 \(Self.keyB)"])
        let plan2 = try bundles.plan(doc2, bundle: "team")
        XCTAssertTrue(plan2.hostKeysToRevoke.isEmpty)
        XCTAssertEqual(plan2.refusedHostKeys, [.init(doc2.hostKeys[0], reason: "you trust a key for app2.example")])
        try bundles.apply(plan2)
        XCTAssertEqual(try status("app2.example", Self.keyB), .trusted)
    }

    /// A rogue signer's bundle speaks only for its own hosts (docs/formats.md, "Team
    /// bundles"): CA, revocation and plain lines for other names, and hosts named like DNS
    /// names or like a saved host's hostname, are reported and not applied.
    func testABundleSpeaksOnlyForItsOwnHosts() throws {
        try db.addHost(NewHost(name: "prod", hostname: "prod.corp.example"))
        try knownHosts.approve(HostLookupName(host: "prod.corp.example"), key: Self.key(Self.keyA), source: "tofu")
        let hashedOwn = HashedHostName(hashing: "app.team.example", salt: Array(repeating: 3, count: 20)).text
        let hashedOther = HashedHostName(hashing: "prod.corp.example", salt: Array(repeating: 4, count: 20)).text
        let doc = BundleDocument(
            name: "team", serial: 1,
            hosts: [BundleHost(name: "app", hostname: "app.team.example"),
                    BundleHost(name: "github.com", hostname: "evil.example"),
                    BundleHost(name: "prod.corp.example", hostname: "prod.corp.example"),
                    BundleHost(name: "sneaky", hostname: "x.example", aliases: ["other.example"])],
            hostKeys: ["@cert-authority * ssh-ed25519 \(Self.keyB)",
                       "@cert-authority *.team.example ssh-ed25519 \(Self.keyB)",
                       "@revoked prod.corp.example ssh-ed25519 \(Self.keyA)",
                       "@revoked * ssh-ed25519 \(Self.keyA)",
                       "github.com ssh-ed25519 \(Self.keyB)",
                       "app.team.example,github.com ssh-ed25519 \(Self.keyB)",
                       "evil.example ssh-ed25519 \(Self.keyB)",
                       "\(hashedOther) ssh-ed25519 \(Self.keyB)",
                       "!other.example,app.team.example ssh-ed25519 \(Self.keyB)",
                       // Its own: applied.
                       "app.team.example ssh-ed25519 \(Self.keyB)",
                       "\(hashedOwn) ssh-ed25519 \(Self.keyB)",
                       "@cert-authority app.team.example,app ssh-ed25519 \(Self.keyA)"])
        let plan = try bundles.plan(doc, bundle: "team")
        XCTAssertEqual(plan.hostsToAdd.map(\.name), ["app"])
        XCTAssertEqual(plan.refusedHosts.map(\.what), ["github.com", "prod.corp.example", "sneaky"])
        XCTAssertEqual(plan.refusedHosts.map(\.reason), ["'github.com' looks like a DNS name but is not the host's hostname",
                                                          "'prod.corp.example' is the hostname of a saved host",
                                                          "'other.example' looks like a DNS name but is not the host's hostname"])
        XCTAssertEqual(plan.refusedHostKeys.map(\.what), Array(doc.hostKeys.prefix(9)))
        let wider = "a pattern wider than the bundle's hosts, which you did not grant"
        XCTAssertEqual(plan.refusedHostKeys.map(\.reason), [wider, wider, BundleStore.notOwnedReason, wider, BundleStore.notOwnedReason,
                                                            BundleStore.notOwnedReason, BundleStore.notOwnedReason, BundleStore.notOwnedReason, wider])
        XCTAssertEqual(plan.hostKeysToTrust, Array(doc.hostKeys.suffix(3)))
        XCTAssertTrue(plan.hostKeysToRevoke.isEmpty)
        try bundles.apply(plan)
        XCTAssertNil(try db.host(named: "github.com"))
        XCTAssertEqual(try db.hosts().map(\.name), ["app", "prod"])
        // No CA is trusted for the user's host; its key is not revoked; github.com is not pre-trusted.
        XCTAssertFalse(try knownHosts.knownKeyTypes(HostLookupName(host: "prod.corp.example")).certificateAuthority)
        XCTAssertEqual(try status("prod.corp.example", Self.keyA), .trusted)
        XCTAssertEqual(try status("github.com", Self.keyB), .unknown)
        XCTAssertEqual(try status("evil.example", Self.keyB), .unknown)
        // Its own host: the key and the CA line apply.
        XCTAssertEqual(try status("app.team.example", Self.keyB), .trusted)
        XCTAssertTrue(try knownHosts.knownKeyTypes(HostLookupName(host: "app.team.example")).certificateAuthority)
        XCTAssertFalse(try knownHosts.knownKeyTypes(HostLookupName(host: "other.team.example")).certificateAuthority)
        XCTAssertEqual(try knownHosts.all().filter { $0.source == "bundle:team" }.count, 4)
    }

    func testSerialRules() throws {
        try bundles.apply(try bundles.plan(team(serial: 5), bundle: "team"))
        XCTAssertThrowsError(try bundles.plan(team(serial: 4), bundle: "team")) {
            XCTAssertEqual(($0 as? BundleRefusal)?.kind, .olderSerial(applied: 5, offered: 4))
        }
        var changed = team(serial: 5)
        changed.hosts[0].port = 2022
        XCTAssertThrowsError(try bundles.plan(changed, bundle: "team")) {
            XCTAssertEqual(($0 as? BundleRefusal)?.kind, .reusedSerial(serial: 5))
        }
        XCTAssertTrue(try bundles.plan(team(serial: 5), bundle: "team").changesNothing)
        XCTAssertThrowsError(try bundles.plan(team(serial: 6), bundle: "other")) {
            XCTAssertEqual(($0 as? BundleRefusal)?.kind, .nameMismatch(expected: "other", found: "team"))
        }
        XCTAssertEqual(try bundles.appliedSerial(bundle: "team"), 5)
        XCTAssertNil(try bundles.appliedSerial(bundle: "other"))
    }

    func testContentThisDatabaseCannotHoldIsRefused() throws {
        func refused(_ doc: BundleDocument, _ words: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try bundles.plan(doc, bundle: doc.name), file: file, line: line) {
                let r = $0 as? BundleRefusal
                XCTAssertEqual(r?.kind, .invalidContent, "\($0)", file: file, line: line)
                XCTAssertTrue(r?.message.contains(words) ?? false, r?.message ?? "\($0)", file: file, line: line)
            }
        }
        refused(BundleDocument(name: "t", serial: 1, hosts: [BundleHost(name: "a b", hostname: "x")]), "invalid host name")
        refused(BundleDocument(name: "t", serial: 1, hosts: [BundleHost(name: "a", hostname: "x", port: 70000)]), "invalid port")
        refused(BundleDocument(name: "t", serial: 1, hosts: [BundleHost(name: "a", hostname: "x", note: "\u{202E}x")]), "bidirectional")
        refused(BundleDocument(name: "t", serial: 1, hosts: [BundleHost(name: "a", hostname: "x", aliases: ["b"]), BundleHost(name: "B", hostname: "y")]), "used twice")
        refused(BundleDocument(name: "t", serial: 1, snippets: [BundleSnippet(name: "s", command: "a\u{7}")]), "control character")
        refused(BundleDocument(name: "t", serial: 1, hostKeys: ["x ssh-ed25519 AAAA"]), "host-key line")
        refused(BundleDocument(name: "t", serial: 1, hosts: [BundleHost(name: "a", hostname: "x", jump: "nowhere")]), "is not a host of the bundle")
        refused(BundleDocument(name: "t", serial: 1, hosts: [BundleHost(name: "a", hostname: "x", jump: "b"), BundleHost(name: "b", hostname: "y", jump: "a")]), "loop")
        XCTAssertEqual(try counts()["hosts"], 0)
        // A jump host of another origin (here the user's) is not the bundle's: the host is
        // refused, the rest applies.
        try db.addHost(NewHost(name: "gate", hostname: "gate.example"))
        let plan = try bundles.plan(BundleDocument(name: "t", serial: 1, hosts: [BundleHost(name: "a", hostname: "x", jump: "gate"),
                                                                                BundleHost(name: "b", hostname: "y")]), bundle: "t")
        XCTAssertEqual(plan.refusedHosts, [.init("a", reason: "its jump host 'gate' is not the bundle's: it is your host")])
        try bundles.apply(plan)
        XCTAssertNil(try db.host(named: "a"))
        XCTAssertEqual(try db.host(named: "b")?.hostname, "y")
    }

    /// A write that fails half way (a trigger refuses the snippet, written after the hosts)
    /// leaves every table as it was; so does a plan that no longer holds.
    func testNothingIsWrittenWhenApplyFailsMidway() throws {
        try knownHosts.approve(HostLookupName(host: "mine.example"), key: Self.key(Self.keyA), source: "tofu")
        let before = try counts()
        try db.connection.execute("CREATE TEMP TRIGGER refuse_snippets BEFORE INSERT ON snippets BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
        let plan = try bundles.plan(team(), bundle: "team")
        XCTAssertThrowsError(try bundles.apply(plan))
        XCTAssertEqual(try counts(), before)
        XCTAssertNil(try bundles.appliedSerial(bundle: "team"))
        try db.connection.execute("DROP TRIGGER refuse_snippets")

        try db.addHost(NewHost(name: "db1", hostname: "meanwhile.example"))
        let afterAdd = try counts()
        XCTAssertThrowsError(try bundles.apply(plan)) { XCTAssertEqual(($0 as? HostStoreError)?.kind, .changedMeanwhile) }
        XCTAssertEqual(try counts(), afterAdd)
        try bundles.apply(try bundles.plan(team(), bundle: "team"))
        XCTAssertEqual(try db.host(named: "db1")?.hostname, "meanwhile.example")
    }

    func testExportCarriesHostsSnippetsAndTheirKeysNeverSecrets() throws {
        _ = try KeyStore(database: db).insert(NewKey(uuid: UUIDString.random(), name: "deploy", publicKey: Self.key(Self.keyB), comment: "", format: "openssh"))
        try db.addHost(NewHost(name: "gate", hostname: "gate.example", tags: ["edge"]))
        try db.addHost(NewHost(name: "web", hostname: "web.example", port: 2200, user: "www", tags: ["prod"], key: "deploy", jump: "gate",
                               note: "say \"hi\"", hasPassword: true, aliases: ["w"]))
        try db.addHost(NewHost(name: "lab", hostname: "lab.example", tags: ["lab"]))
        try db.addSnippet(name: "up", command: "uptime", description: nil)
        try knownHosts.approve(HostLookupName(host: "web.example", port: 2200), key: Self.key(Self.keyA), source: "tofu")
        try knownHosts.approve(HostLookupName(host: "lab.example"), key: Self.key(Self.keyA), source: "tofu")
        try knownHosts.revoke(HostLookupName(host: "old.example"), key: Self.key(Self.keyB), source: "user")
        try knownHosts.revoke(HostLookupName(host: "gate.example"), key: Self.key(Self.keyB), source: "user")
        _ = try knownHosts.importKnownHosts(Array("@cert-authority *.example ssh-ed25519 \(Self.keyB)\n".utf8))
        let doc = try bundles.document(name: "team", selection: BundleExportSelection(tags: ["PROD"], snippets: ["up"]), serial: 9)
        XCTAssertEqual(doc.hosts.map(\.name).sorted(), ["gate", "web"], "web and the jump host it needs")
        let web = try XCTUnwrap(doc.hosts.first { $0.name == "web" })
        XCTAssertEqual(web, BundleHost(name: "web", hostname: "web.example", port: 2200, user: "www", tags: ["prod"], aliases: ["w"],
                                       jump: "gate", note: "say \"hi\"", key: "deploy"))
        XCTAssertEqual(doc.snippets, [BundleSnippet(name: "up", command: "uptime")])
        XCTAssertEqual(Set(doc.hostKeys), ["[web.example]:2200 ssh-ed25519 \(Self.keyA)", "@revoked gate.example ssh-ed25519 \(Self.keyB)"],
                       "only lines naming nothing but the exported hosts")
        let text = BundleText.render(doc)
        XCTAssertEqual(try BundleText.parse(text), try BundleText.parse(BundleText.render(try BundleText.parse(text))))
        XCTAssertFalse(String(decoding: text, as: UTF8.self).contains("password"))

        // Imported into a second database: the same hosts, keys and snippet.
        let other = try HostDatabase.open(path: folder.file("b.db"))
        let theirs = BundleStore(database: other)
        let parsed = try BundleText.parse(text)
        let plan = try theirs.plan(parsed, bundle: "team")
        XCTAssertEqual(plan.missingKeys, [.init(host: "web", key: "deploy")])
        XCTAssertTrue(plan.refusedHostKeys.isEmpty && plan.refusedHosts.isEmpty, "export → import refuses nothing")
        try theirs.apply(plan)
        XCTAssertEqual(try other.hosts().map { "\($0.name) \($0.source) \($0.auth.rawValue)" }, ["gate bundle:team agent", "web bundle:team agent"])
        XCTAssertEqual(try KnownHostsStore(database: other).check(HostLookupName(host: "web.example", port: 2200), presented: .plain(Self.key(Self.keyA))).decision.status, .trusted)
        XCTAssertTrue(try theirs.plan(parsed, bundle: "team").changesNothing)
        // Hosts a bundle brought are not exported again from there.
        XCTAssertTrue(try theirs.document(name: "relay", serial: 1).hosts.isEmpty)
        XCTAssertTrue(try theirs.document(name: "relay", serial: 1).hostKeys.filter { !$0.hasPrefix("@") }.isEmpty)
    }

    func testSignersAndSubscriptions() throws {
        XCTAssertTrue(try bundles.trust(bundle: "team", signer: Self.key(Self.keyA)))
        XCTAssertFalse(try bundles.trust(bundle: "team", signer: Self.key(Self.keyA)), "trusting again changes nothing")
        XCTAssertTrue(try bundles.trust(bundle: "team", signer: Self.key(Self.keyB)))
        XCTAssertEqual(try bundles.signers(bundle: "team"), [Self.key(Self.keyA), Self.key(Self.keyB)])
        XCTAssertEqual(try bundles.signers(bundle: "other"), [])
        XCTAssertTrue(try bundles.untrust(bundle: "team", signer: Self.key(Self.keyA)))
        XCTAssertEqual(try bundles.signers(bundle: "team"), [Self.key(Self.keyB)])
        XCTAssertThrowsError(try bundles.trust(bundle: "../x", signer: Self.key(Self.keyA))) {
            XCTAssertEqual(($0 as? HostStoreError)?.kind, .rejected)
        }
        try bundles.subscribe(bundle: "team", url: "https://git.example/team.git")
        try bundles.subscribe(bundle: "lab", url: "/srv/git/lab")
        try bundles.subscribe(bundle: "team", url: "ssh://git.example/team.git")
        XCTAssertEqual(try bundles.subscriptions(), [BundleSubscription(name: "lab", url: "/srv/git/lab"),
                                                     BundleSubscription(name: "team", url: "ssh://git.example/team.git")])
        XCTAssertThrowsError(try bundles.subscribe(bundle: "x", url: "a\nb"))
        XCTAssertTrue(try bundles.unsubscribe(bundle: "lab"))
        XCTAssertEqual(try bundles.subscriptions().map(\.name), ["team"])
    }

    /// The work of a plan (SQLite instructions, no clock) grows with the bundle, not with
    /// the known-hosts entries already stored: each line is an index probe, never a scan.
    func testPlanWorkGrowsWithTheBundleNotWithTheStore() throws {
        func work(stored: Int, lines: Int) throws -> Int {
            let folder = try TempFolder()
            let database = try HostDatabase.open(path: folder.file("w.db"))
            var file = ""
            for i in 0..<stored { file += "h\(i).stored.example ssh-ed25519 \(Self.keyA)\n" }
            _ = try KnownHostsStore(database: database).importKnownHosts(Array(file.utf8))
            let doc = BundleDocument(name: "team", serial: 1,
                                     hosts: (0..<lines).map { BundleHost(name: "b\($0)", hostname: "b\($0).example") },
                                     hostKeys: (0..<lines).map { "b\($0).example ssh-ed25519 \(Self.keyB)" })
            let store = BundleStore(database: database)
            let (plan, instructions) = try database.connection.countingInstructions { try store.plan(doc, bundle: "team") }
            XCTAssertEqual(plan.hostKeysToTrust.count, lines)
            return instructions
        }
        let small = try work(stored: 1_000, lines: 50)
        let large = try work(stored: 8_000, lines: 50)
        XCTAssertLessThan(Double(large) / Double(small), 1.5, "8× the stored entries: \(small) → \(large) instructions")
        let twice = try work(stored: 1_000, lines: 100)
        XCTAssertLessThan(Double(twice) / Double(small), 2.6, "2× the bundle: \(small) → \(twice) instructions")
    }
}
