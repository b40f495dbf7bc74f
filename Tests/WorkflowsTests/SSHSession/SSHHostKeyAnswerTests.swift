// What `hostbook known-hosts lookup` answers ssh (Workflows' SSHHostKeyAnswer), in-process
// against a real SQLite store: one decision of the trust core per call, and the known_hosts
// lines ssh acts on for a trusted, unknown, changed and revoked key, with no database yet,
// and for a key ssh passed that cannot be read.
import HostStore
import KeyFormats
import TestSupport
import Workflows
import XCTest

final class SSHHostKeyAnswerTests: XCTestCase {
    private var folder: TempFolder!
    private var database: HostDatabase!
    private let lookup = HostLookupName(host: "web.test", port: 2222)

    override func setUpWithError() throws {
        folder = try TempFolder()
        database = try HostDatabase.open(path: folder.file("hostbook.db"))
    }

    override func tearDown() {
        database = nil
        folder = nil
    }

    private func key() throws -> PublicKey { try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "").publicKey }

    private func answer(_ key: PublicKey, name: String = "[web.test]:2222", phase: String = "HOSTNAME", in database: HostDatabase?) throws -> SSHHostKeyAnswer {
        try SSHHostKeyAnswer.answer(database, phase: phase, name: name, lookup: lookup, keyType: key.type, keyBase64: key.base64)
    }

    func testATrustedKeyIsItsOwnLineAfterOneDecision() throws {
        let trusted = try key()
        XCTAssertTrue(try KnownHostsStore(database: database).approve(lookup, key: trusted, source: "tofu"))
        let before = HostKeyDecisions.made
        guard case .trusted(let lines) = try answer(trusted, name: "web-alias", in: database) else { return XCTFail("not trusted") }
        XCTAssertEqual(HostKeyDecisions.made - before, 1, "one decision per KnownHostsCommand call")
        XCTAssertEqual(lines, ["web-alias \(trusted.type) \(trusted.base64)"], "the name exactly as ssh gave it")
    }

    func testAnUnknownKeyIsLeftToTheCallerToAskAbout() throws {
        let unknown = try key()
        guard case .unknown(let asked) = try answer(unknown, in: database) else { return XCTFail("not unknown") }
        XCTAssertEqual(asked, unknown)
        guard case .unknown(let noStore) = try answer(unknown, in: nil) else { return XCTFail("no database: unknown") }
        XCTAssertEqual(noStore, unknown)
    }

    func testAChangedKeyAnswersTheStoredKeysForSshToRefuse() throws {
        let stored = try key(), offered = try key()
        XCTAssertTrue(try KnownHostsStore(database: database).approve(lookup, key: stored, source: "tofu"))
        guard case .changed(let lines, let rows, let presented) = try answer(offered, in: database) else { return XCTFail("not changed") }
        XCTAssertEqual(lines, ["[web.test]:2222 \(stored.type) \(stored.base64)"])
        XCTAssertEqual(rows.map(\.keyBlob), [stored.blob])
        XCTAssertEqual(presented, offered)
    }

    func testARevokedKeyIsAnAtRevokedLine() throws {
        let revoked = try key()
        _ = try KnownHostsStore(database: database).importKnownHosts(Array("@revoked [web.test]:2222 \(revoked.line(comment: ""))\n".utf8))
        guard case .revoked(let line, let key, let list) = try answer(revoked, in: database) else { return XCTFail("not revoked") }
        XCTAssertEqual(line, "@revoked [web.test]:2222 \(revoked.type) \(revoked.base64)")
        XCTAssertEqual(key, revoked)
        XCTAssertNil(list, "an @revoked entry, not a revocation list")
    }

    func testTheOrderRunAnswersTheStoredKeysAndNothingWithoutADatabase() throws {
        let stored = try key()
        XCTAssertTrue(try KnownHostsStore(database: database).approve(lookup, key: stored, source: "tofu"))
        let before = HostKeyDecisions.made
        guard case .known(let lines) = try SSHHostKeyAnswer.answer(database, phase: "ORDER", name: "n", lookup: lookup, keyType: "NONE", keyBase64: "NONE")
        else { return XCTFail("not the stored keys") }
        XCTAssertEqual(lines, ["n \(stored.type) \(stored.base64)"])
        XCTAssertEqual(HostKeyDecisions.made, before, "the ORDER run decides nothing")
        guard case .known(let none) = try SSHHostKeyAnswer.answer(nil, phase: "ORDER", name: "n", lookup: lookup, keyType: "NONE", keyBase64: "NONE")
        else { return XCTFail("no database: no lines") }
        XCTAssertEqual(none, [])
    }

    func testAKeySshPassedThatCannotBeReadIsARefusalNamingItsType() throws {
        XCTAssertThrowsError(try SSHHostKeyAnswer.answer(database, phase: "HOSTNAME", name: "n", lookup: lookup, keyType: "ssh-ed25519", keyBase64: "bm90IGEga2V5")) { error in
            guard case .unreadableHostKey(let type)? = error as? SSHSessionRefusal else { return XCTFail("\(error)") }
            XCTAssertEqual(type, "ssh-ed25519")
        }
    }
}
