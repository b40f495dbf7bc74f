// A certificate authority through a team bundle, on real SQLite files: the publisher's
// export carries the CA's @cert-authority line (its hosts, or the scope given; never a bare
// `*`), its unexpired, unrevoked user certificates and its KRL; a subscriber applies a CA
// line beyond the bundle's hosts only within the scope it granted, attaches only the
// certificates of its own keys, and refuses what the KRL revokes until the bundle goes.
@testable import HostStore
import ImportFormats
import KeyFormats
import XCTest
import TestSupport

final class BundleCertificateAuthorityTests: DatabaseTestCase {
    let caKey = try! PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "ca")
    let otherCA = try! PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "other")
    let alice = try! PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "alice").publicKey
    let bob = try! PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "bob").publicKey
    let hostKey = try! PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "host").publicKey

    var now: UInt64 { StoreClock.nowSeconds() }

    func certificate(_ key: PublicKey, role: Certificate.Role = .user, serial: UInt64, principals: [String] = ["alice"],
                     validBefore: UInt64? = nil, by ca: PrivateKey? = nil) throws -> Certificate {
        try CertificateEncoder.sign(CertificateFields(key: key, role: role, serial: serial, keyID: "id \(serial)", principals: principals,
                                                      validAfter: 0, validBefore: validBefore ?? now + 86_400,
                                                      options: role == .user ? .userDefault : .none), with: ca ?? caKey)
    }

    func authorityLine(_ patterns: String) -> String { "@cert-authority \(patterns) \(caKey.publicKey.line())" }

    // MARK: Export

    func testExportCarriesTheAuthorityLineItsLiveUserCertificatesAndItsKRL() throws {
        _ = try db.addHost(NewHost(name: "web", hostname: "web.corp.example", aliases: ["w"]))
        _ = try db.addHost(NewHost(name: "db", hostname: "db.corp.example", port: 2222))
        let cas = CertificateAuthorityStore(database: db)
        try cas.insert(uuid: "ca-uuid", name: "team", publicKey: caKey.publicKey)
        let live = try cas.issue(authority: "team") { _, serial in try self.certificate(self.alice, serial: serial) }
        _ = try cas.issue(authority: "team") { _, serial in try self.certificate(self.alice, serial: serial, validBefore: 10) }
        _ = try cas.issue(authority: "team") { _, serial in try self.certificate(self.hostKey, role: .host, serial: serial, principals: ["web.corp.example"]) }
        let revoked = try cas.issue(authority: "team") { _, serial in try self.certificate(self.bob, serial: serial) }
        try cas.revoke(authority: "team", .serial(revoked.serial))
        try cas.revoke(authority: "team", .key(hostKey))

        let store = BundleStore(database: db)
        let document = try store.document(name: "team", selection: BundleExportSelection(certificateAuthority: "team"), serial: 1)
        XCTAssertEqual(document.hostKeys, [authorityLine("[db.corp.example]:2222,[db]:2222,w,web,web.corp.example")],
                       "the hosts' hostnames, names and aliases at their ports")
        XCTAssertEqual(document.certificates, [BundleText.line(of: live.certificate)], "no expired, host or revoked certificate")
        let krl = try BundleText.revocationList(try XCTUnwrap(document.revocationList))
        XCTAssertEqual(krl.certificates.first?.serials, [revoked.serial])
        XCTAssertEqual(krl.revocation(of: hostKey), .key)
        // The text carries it all, and the same CA exports the same bytes again.
        let parsed = try BundleText.parse(BundleText.render(document))
        XCTAssertEqual(parsed.certificates, document.certificates)
        XCTAssertEqual(parsed.revocationList, document.revocationList)
        let again = try store.document(name: "team", selection: BundleExportSelection(certificateAuthority: "team"), serial: 1)
        XCTAssertEqual(BundleText.render(again), BundleText.render(document))

        let scoped = try store.document(name: "team", selection: BundleExportSelection(certificateAuthority: "team", authorityScope: ["*.corp.example"]), serial: 2)
        XCTAssertEqual(scoped.hostKeys, [authorityLine("*.corp.example")])
        for bad in ["*", "*.*", "a,b", "!x.example", "a b"] {
            XCTAssertThrowsError(try store.document(name: "team", selection: BundleExportSelection(certificateAuthority: "team", authorityScope: [bad]), serial: 2), bad) {
                XCTAssertEqual(($0 as? HostStoreError)?.kind, .rejected, "\($0)")
            }
        }
        XCTAssertThrowsError(try store.document(name: "team", selection: BundleExportSelection(certificateAuthority: "nobody"), serial: 2)) {
            XCTAssertEqual($0 as? CertificateAuthorityRefusal, .notFound("nobody"))
        }
    }

    // MARK: Scope

    func team(serial: UInt64 = 1, hostKeys: [String], certificates: [Certificate] = [], revocationList: KeyRevocationList? = nil) -> BundleDocument {
        BundleDocument(name: "team", serial: serial, hosts: [BundleHost(name: "web", hostname: "web.corp.example")], hostKeys: hostKeys,
                       certificates: certificates.map(BundleText.line(of:)), revocationList: revocationList.map { Base64.encode($0.encoded()) })
    }

    func hostCertificateStatus(_ host: String, serial: UInt64 = 50) throws -> KnownHostsStore.Check {
        let cert = try certificate(hostKey, role: .host, serial: serial, principals: [host])
        return try KnownHostsStore(database: db).check(HostLookupName(host: host), presented: .certificate(cert))
    }

    func testACertificateAuthorityBeyondTheBundlesHostsAppliesOnlyWithinTheGrantedScope() throws {
        let store = BundleStore(database: db)
        let wide = authorityLine("*.corp.example")
        let literal = authorityLine("mail.corp.example")
        let outside = authorityLine("mail.other.example")
        let own = authorityLine("web.corp.example")
        var plan = try store.plan(team(hostKeys: [wide, literal, outside, own]), bundle: "team")
        XCTAssertEqual(Set(plan.refusedHostKeys.map(\.what)), [wide, literal, outside])
        XCTAssertEqual(plan.hostKeysToTrust, [own])

        XCTAssertThrowsError(try store.grant(bundle: "team", patterns: ["*"])) { XCTAssertEqual(($0 as? HostStoreError)?.kind, .rejected) }
        XCTAssertEqual(try store.scopes(bundle: "team"), [], "a refused grant writes nothing")
        XCTAssertEqual(try store.grant(bundle: "team", patterns: ["*.corp.example"]), ["*.corp.example"])
        XCTAssertEqual(try store.grant(bundle: "TEAM", patterns: ["*.corp.example"]), [], "granted already")
        // A name of the user's own host stays theirs, granted or not.
        _ = try db.addHost(NewHost(name: "mine", hostname: "mine.corp.example"))
        let mine = authorityLine("mine.corp.example")
        plan = try store.plan(team(hostKeys: [wide, literal, outside, own, mine]), bundle: "team")
        XCTAssertEqual(plan.refusedHostKeys.map(\.what).sorted(), [outside, mine].sorted(), "mail.other.example is outside the scope")
        XCTAssertTrue(plan.refusedHostKeys.first { $0.what == mine }?.reason.contains("your host 'mine'") == true, "\(plan.refusedHostKeys)")
        plan = try store.plan(team(hostKeys: [wide, literal, outside, own]), bundle: "team")
        XCTAssertEqual(plan.refusedHostKeys.map(\.what), [outside], "mail.other.example is outside the scope")
        XCTAssertEqual(Set(plan.hostKeysToTrust), [wide, literal, own])
        try store.apply(plan)
        XCTAssertTrue(try hostCertificateStatus("db.corp.example").decision.viaCertificateAuthority)
        XCTAssertEqual(try hostCertificateStatus("mail.other.example").decision.status, .unknown, "the refused line changed nothing")
        XCTAssertEqual(try store.overview().first?.caScope, ["*.corp.example"])

        // Taken back: the next update removes the lines that needed it.
        XCTAssertEqual(try store.revokeScope(bundle: "team", patterns: ["*.corp.example"]), 1)
        plan = try store.plan(team(serial: 2, hostKeys: [wide, literal, outside, own]), bundle: "team")
        XCTAssertEqual(Set(plan.hostKeysToRemove), [wide, literal])
        try store.apply(plan)
        XCTAssertEqual(try hostCertificateStatus("db.corp.example").decision.status, .unknown)
        XCTAssertTrue(try hostCertificateStatus("web.corp.example").decision.viaCertificateAuthority, "its own host stays")
    }

    // MARK: Certificates and the KRL

    @discardableResult
    func storedKey(_ name: String, _ key: PublicKey) throws -> StoredKey {
        try KeyStore(database: db).insert(NewKey(uuid: UUIDString.random(), name: name, publicKey: key, comment: name, format: "openssh-key-v1"))
    }

    func testCertificatesAreAttachedToTheSubscribersOwnKeysAndTheKRLRevokes() throws {
        let aliceKey = try storedKey("alice", alice)
        let store = BundleStore(database: db)
        let certificates = KeyCertificates(database: db)
        let alices = try certificate(alice, serial: 1)
        let bobs = try certificate(bob, serial: 2)
        let foreign = try certificate(alice, serial: 3, by: otherCA)
        let krl = KeyRevocationList(version: 1, generatedDate: 0, certificates: [.init(caKey: caKey.publicKey.blob, serials: [7])],
                                    sha256Hashes: [Digest.sha256(hostKey.blob)])
        let knownHosts = KnownHostsStore(database: db)
        try knownHosts.approve(HostLookupName(host: "mine.example"), key: hostKey, source: "tofu")
        let plan = try store.plan(team(hostKeys: [authorityLine("web.corp.example")], certificates: [alices, bobs, foreign], revocationList: krl), bundle: "team")
        XCTAssertEqual(plan.certificatesToAttach, [.init(key: "alice", serial: 1, keyID: "id 1", authority: caKey.publicKey.sha256Fingerprint,
                                                         validBefore: alices.validBefore, replaces: false)])
        XCTAssertEqual(plan.certificatesNotAttached, [.init(key: "alice", serial: 3, reason: .notTheBundlesAuthority)])
        XCTAssertEqual(plan.certificatesIgnored, 1, "bob's key is not here")
        XCTAssertTrue(plan.revocationListChanged)
        XCTAssertNil(try certificates.certificate(of: aliceKey), "a plan writes nothing")
        try store.apply(plan)
        XCTAssertEqual(try certificates.certificate(of: aliceKey), alices)
        XCTAssertEqual(try KeyCertificates(database: db).all().count, 1)

        // The KRL: the revoked host key (which the user trusted) and a certificate of the
        // revoked serial, for any name.
        let check = try knownHosts.check(HostLookupName(host: "mine.example"), presented: .plain(hostKey))
        XCTAssertEqual(check.decision.status, .revoked)
        XCTAssertEqual(check.revocationList, "bundle:team")
        let other = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "h2").publicKey
        let revokedSerial = try certificate(other, role: .host, serial: 7, principals: ["web.corp.example"])
        XCTAssertEqual(try knownHosts.check(HostLookupName(host: "web.corp.example"), presented: .certificate(revokedSerial)).decision.status, .revoked)
        let fine = try certificate(other, role: .host, serial: 8, principals: ["web.corp.example"])
        XCTAssertTrue(try knownHosts.check(HostLookupName(host: "web.corp.example"), presented: .certificate(fine)).decision.viaCertificateAuthority)

        // A renewal replaces it; an older certificate of the same CA does not.
        let renewed = try certificate(alice, serial: 9, validBefore: alices.validBefore + 3600)
        var next = try store.plan(team(serial: 2, hostKeys: [authorityLine("web.corp.example")], certificates: [alices, renewed], revocationList: krl), bundle: "team")
        XCTAssertEqual(next.certificatesToAttach.map(\.serial), [9])
        XCTAssertEqual(next.certificatesToAttach.first?.replaces, true)
        XCTAssertFalse(next.revocationListChanged)
        try store.apply(next)
        XCTAssertEqual(try certificates.certificate(of: aliceKey), renewed)
        next = try store.plan(team(serial: 3, hostKeys: [authorityLine("web.corp.example")], certificates: [alices], revocationList: krl), bundle: "team")
        XCTAssertEqual(next.certificatesToAttach, [], "the later one stays")

        // A certificate of another CA the user attached stays.
        try certificates.attach(foreign, to: aliceKey)
        next = try store.plan(team(serial: 3, hostKeys: [authorityLine("web.corp.example")], certificates: [renewed], revocationList: krl), bundle: "team")
        XCTAssertEqual(next.certificatesToAttach, [])
        XCTAssertEqual(next.certificatesNotAttached, [.init(key: "alice", serial: 9, reason: .otherAuthorityAttached)])

        // The bundle goes: so does its KRL.
        try store.apply(try XCTUnwrap(try store.planRemoval(bundle: "team")))
        XCTAssertEqual(try knownHosts.check(HostLookupName(host: "mine.example"), presented: .plain(hostKey)).decision.status, .trusted)
        XCTAssertEqual(try knownHosts.revocationLists().count, 0)
    }
}
