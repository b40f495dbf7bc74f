// A key's user certificate in both agents (AgentCertificateOffer through
// AgentAccessPolicy), driven in-process through the Agent library's conversation against a
// real SQLite database and certificates made by ssh-keygen -s: listed after its key, to the
// destinations the key is offered to and no others; a sign request naming the certificate
// signs with the key, as does one naming the key for user-authentication data that carries
// the certificate (ssh's CertificateFile); a certificate outside its validity window is not
// offered, and the standing agent's log names it.
import Foundation
import XCTest
@testable import Agent
import Sessions
import HostStore
import KeyFormats
import TestSupport

final class AgentCertificateOfferTests: XCTestCase {
    private var folder: TempFolder!
    private var database: HostDatabase!
    private var userKeys: [String: PrivateKey] = [:]
    private var hostKeys: [String: PrivateKey] = [:]

    override func setUpWithError() throws {
        guard Tool.sshKeygen != nil else { throw XCTSkip("ssh-keygen is not installed") }
        folder = try TempFolder()
        database = try HostDatabase.open(path: folder.file("hostbook.db"))
        try keygen(["-q", "-t", "ed25519", "-N", "", "-f", folder.file("ca")])
        for name in ["db-key", "web-key"] {
            let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: name)
            userKeys[name] = key
            try KeyStore(database: database).insert(NewKey(uuid: UUIDString.random(), name: name, publicKey: key.publicKey,
                                                           comment: name, format: "openssh"))
        }
        try database.addHost(NewHost(name: "web", hostname: "web.test", key: "web-key"))
        try database.addHost(NewHost(name: "db", hostname: "db.test", key: "db-key"))
        var lines = ""
        for name in ["web", "db"] {
            let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: name)
            hostKeys[name] = key
            lines += "\(name).test \(key.publicKey.line(comment: ""))\n"
        }
        _ = try KnownHostsStore(database: database).importKnownHosts(Array(lines.utf8))
    }

    override func tearDown() {
        database = nil
        folder = nil
    }

    // MARK: Cases

    func testAValidCertificateIsListedAfterItsKeyOnlyWhereTheKeyIs() throws {
        let certificate = try attach("web-key", validity: "-5m:+1h")
        var c = AgentConversation(peer: Self.peer, policy: standing())
        XCTAssertEqual(listed(c), [userKeys["db-key"]!.publicKey.blob, userKeys["web-key"]!.publicKey.blob, certificate.blob],
                       "unbound: every key, the certificate right after its key")
        XCTAssertEqual(c.reply(to: bind("web")), Self.success)
        XCTAssertEqual(listed(c), [userKeys["web-key"]!.publicKey.blob, certificate.blob])
        var other = AgentConversation(peer: Self.peer, policy: standing())
        XCTAssertEqual(other.reply(to: bind("db")), Self.success)
        XCTAssertEqual(listed(other), [userKeys["db-key"]!.publicKey.blob], "another destination is offered neither key nor certificate")
        XCTAssertNil(signature(&other, named: certificate.blob, authenticating: certificate.blob, bound: "db"))
    }

    func testASignRequestNamingTheCertificateSignsWithTheKey() throws {
        let certificate = try attach("web-key", validity: "-5m:+1h")
        let outcomes = Outcomes()
        var c = AgentConversation(peer: Self.peer, policy: standing(outcomes: outcomes))
        XCTAssertEqual(c.reply(to: bind("web")), Self.success)
        let (sig, data) = try XCTUnwrap(signature(&c, named: certificate.blob, authenticating: certificate.blob, bound: "web"))
        XCTAssertTrue(userKeys["web-key"]!.publicKey.verifies(signatureBlob: sig, over: data), "signed by the certified key")
        XCTAssertEqual(outcomes.all.map(\.certificate), [certificate])
    }

    func testTheKeyNamedForDataCarryingItsCertificateSigns() throws {
        // ssh with CertificateFile asks the agent's plain key to sign data naming the certificate.
        let certificate = try attach("web-key", validity: "-5m:+1h")
        let outcomes = Outcomes()
        var c = AgentConversation(peer: Self.peer, policy: standing(outcomes: outcomes))
        XCTAssertEqual(c.reply(to: bind("web")), Self.success)
        XCTAssertNotNil(signature(&c, named: userKeys["web-key"]!.publicKey.blob, authenticating: certificate.blob, bound: "web"))
        XCTAssertEqual(outcomes.all.map(\.certificate), [certificate])
        // Data naming a certificate the connection is not offered (another key's) is refused.
        let dbCertificate = try attach("db-key", validity: "-5m:+1h")
        XCTAssertNil(signature(&c, named: userKeys["web-key"]!.publicKey.blob, authenticating: dbCertificate.blob, bound: "web"))
    }

    func testACertificateOutsideItsValidityIsNotOfferedAndTheLogNamesIt() throws {
        let expired = try attach("web-key", validity: "20200101:20200102")
        let log = try AgentLogWriter(database: try HostDatabase.open(path: folder.file("hostbook.db")))
        let keys = userKeys
        let agent = StandingAgent(database: database, log: log, readPrivateKey: { stored in keys[stored.name]! })
        var c = AgentConversation(peer: Self.peer, policy: agent.policy)
        XCTAssertEqual(c.reply(to: bind("web")), Self.success)
        XCTAssertEqual(listed(c), [userKeys["web-key"]!.publicKey.blob], "the key alone")
        XCTAssertNil(signature(&c, named: expired.blob, authenticating: expired.blob, bound: "web"))
        log.flush()
        log.stop()
        let entries = try database.agentLog()
        let notOffered = try XCTUnwrap(entries.first { $0.decision == AgentCertificateOffer.notValidDecision })
        XCTAssertEqual(notOffered.certificate, "key id \"web-key@test\", serial \(expired.serial)")
        XCTAssertEqual(notOffered.keyName, "web-key")
        XCTAssertTrue(notOffered.reason?.contains("expired") == true, notOffered.reason ?? "no reason")
        XCTAssertTrue(entries.allSatisfy { !$0.signed })
    }

    func testTheSessionAgentOffersTheHopKeysCertificate() throws {
        let certificate = try attach("web-key", validity: "-5m:+1h")
        let stored = try XCTUnwrap(try KeyStore(database: database).find(name: "web-key"))
        let database = self.database!
        let keys = userKeys
        let access = AgentAccessPolicy(rules: .session(hops: [SessionHopKey(key: stored, host: "web.test", port: 22)], sshVersion: (9, 2)),
                                       database: { database })
        let policy = access.agentPolicy(identity: { s in keys[s.name].map { AgentIdentity(key: $0, comment: s.name) } })
        var c = AgentConversation(peer: Self.peer, policy: policy)
        XCTAssertEqual(c.reply(to: bind("web")), Self.success)
        XCTAssertEqual(listed(c), [stored.publicKeyBlob, certificate.blob])
        XCTAssertNotNil(signature(&c, named: certificate.blob, authenticating: certificate.blob, bound: "web"))
    }

    // MARK: Helpers

    static let peer = AgentPeer(pid: 1, uid: 0, gid: 0)
    static let success: [UInt8] = [6]

    final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [AgentSignOutcome] = []
        func add(_ o: AgentSignOutcome) { lock.withLock { list.append(o) } }
        var all: [AgentSignOutcome] { lock.withLock { list } }
    }

    private func standing(outcomes: Outcomes? = nil) -> AgentPolicy {
        let database = self.database!
        let keys = userKeys
        let identity: @Sendable (StoredKey) -> AgentIdentity? = { s in keys[s.name].map { AgentIdentity(key: $0, comment: s.name) } }
        var outcome: (@Sendable (AgentConnectionState, PublicKey, AgentSignOutcome) -> Void)?
        if let outcomes { outcome = { _, _, told in outcomes.add(told) } }
        return AgentAccessPolicy(rules: .standing, database: { database }).agentPolicy(identity: identity, outcome: outcome)
    }

    /// Signs `name`'s public key with the test CA (`validity` as ssh-keygen -V takes it)
    /// and attaches the certificate.
    @discardableResult
    private func attach(_ name: String, validity: String) throws -> Certificate {
        let pub = folder.file(name + ".pub")
        try Data((userKeys[name]!.publicKey.line(comment: name) + "\n").utf8).write(to: URL(fileURLWithPath: pub))
        try keygen(["-q", "-s", folder.file("ca"), "-I", "\(name)@test", "-n", "alice", "-V", validity, pub])
        guard case .certificate(let certificate, _) = try PublicKeyFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: folder.file(name + "-cert.pub"))))) else {
            throw XCTSkip("ssh-keygen wrote no certificate")
        }
        let stored = try XCTUnwrap(try KeyStore(database: database).find(name: name))
        try KeyCertificates(database: database).attach(certificate, to: stored)
        return certificate
    }

    private func keygen(_ args: [String]) throws {
        let run = try Tool.run(Tool.sshKeygen!, args)
        XCTAssertEqual(run.status, 0, "ssh-keygen \(args): \(run.stderr)")
    }

    /// The blobs a request-identities lists.
    private func listed(_ c: AgentConversation) -> [[UInt8]] {
        var conversation = c
        var r = SSHReader(conversation.reply(to: [11]))
        guard (try? r.readByte()) == 12, let count = try? r.readUInt32() else { return [] }
        return (0..<count).compactMap { _ in
            let blob = try? r.readString()
            _ = try? r.readString()
            return blob
        }
    }

    private static func sessionID(_ hostKeyBlob: [UInt8]) -> [UInt8] { AgentRequests.sessionID(hostKeyBlob) }

    private func bind(_ host: String) -> [UInt8] { AgentRequests(hostKeys: hostKeys).bind(host) }

    /// A sign request naming `blob` for hostbound user-authentication data naming
    /// `authenticating`, on a connection bound to `host`: the signature and the data, or nil
    /// when refused.
    private func signature(_ c: inout AgentConversation, named blob: [UInt8], authenticating: [UInt8], bound host: String) -> ([UInt8], [UInt8])? {
        let hostBlob = hostKeys[host]!.publicKey.blob
        let data = AgentWire.hostboundUserAuth(sessionID: Self.sessionID(hostBlob), keyType: "ssh-ed25519-cert-v01@openssh.com",
                                               keyBlob: authenticating, hostKeyBlob: hostBlob)
        var r = SSHReader(c.reply(to: AgentWire.signRequest(keyBlob: blob, data: data)))
        guard (try? r.readByte()) == 14, let sig = try? r.readString() else { return nil }
        return (sig, data)
    }
}
