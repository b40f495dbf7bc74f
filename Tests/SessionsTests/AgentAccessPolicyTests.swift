// The one access decision of both agents (AgentAccessPolicy), driven in-process through
// the Agent library's conversation against a real SQLite database: what a connection is
// listed is what it may sign with, for the standing agent's rules and for the session
// agent's, unbound, bound (to a plain host key and to a host certificate made by
// ssh-keygen -s), forwarded, after a failed bind, for a host with no key of its own, and
// while locked.
import Foundation
import TestSupport
import XCTest
@testable import Agent
import Sessions
import HostStore
import KeyFormats
import SecureMemory

class AgentAccessPolicyTests: XCTestCase {
    /// The user key saved as `name` (SecurityKeyAccessPolicyTests makes security keys).
    class func makeUserKey(_ name: String, index: Int, in folder: String) throws -> PrivateKey {
        try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: name)
    }

    /// How the agent signs with a user key.
    class func identity(_ key: PrivateKey, name: String) -> AgentIdentity { AgentIdentity(key: key, comment: name) }

    private var folder: String!
    private var database: HostDatabase!
    /// User keys by saved name.
    private var userKeys: [String: PrivateKey] = [:]
    private var stored: [String: StoredKey] = [:]
    /// Host keys by host name (`stranger` is trusted by nothing).
    private var hostKeys: [String: PrivateKey] = [:]

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("agent-access-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        database = try HostDatabase.open(path: folder + "/hostbook.db")
        for (index, name) in ["cert-key", "db-key", "web-key"].enumerated() {
            let key = try Self.makeUserKey(name, index: index, in: folder)
            userKeys[name] = key
            stored[name] = try KeyStore(database: database).insert(NewKey(uuid: UUIDString.random(), name: name, publicKey: key.publicKey,
                                                                          comment: name, format: "openssh"))
        }
        try database.addHost(NewHost(name: "web", hostname: "web.test", key: "web-key"))
        try database.addHost(NewHost(name: "db", hostname: "db.test", key: "db-key"))
        try database.addHost(NewHost(name: "bare", hostname: "bare.test"))
        var lines = ""
        for name in ["web", "db", "bare", "stranger"] {
            let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: name)
            hostKeys[name] = key
            if name != "stranger" { lines += "\(name).test \(key.publicKey.line(comment: ""))\n" }
        }
        _ = try KnownHostsStore(database: database).importKnownHosts(Array(lines.utf8))
    }

    override func tearDown() {
        database = nil
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }

    // MARK: The standing agent

    private func standing(lock: AgentLock? = nil) -> AgentPolicy {
        let database = self.database!
        let access = AgentAccessPolicy(rules: .standing, lock: lock, database: { database })
        return access.agentPolicy(identity: identity)
    }

    func testStandingUnboundListsAndSignsEveryKey() throws {
        var c = AgentConversation(peer: Self.peer, policy: standing())
        XCTAssertEqual(listed(c), ["cert-key", "db-key", "web-key"], "saved keys in name order")
        for name in ["web-key", "db-key", "cert-key"] { XCTAssertTrue(signs(&c, name, data: [1, 2, 3]), name) }
    }

    func testStandingBoundOffersOnlyTheKeysOfTheHostsTrustingTheHostKey() throws {
        var c = AgentConversation(peer: Self.peer, policy: standing())
        XCTAssertEqual(c.reply(to: bind("web")), Self.success)
        XCTAssertEqual(listed(c), ["web-key"])
        XCTAssertTrue(signs(&c, "web-key", bound: "web"))
        XCTAssertFalse(signs(&c, "db-key", bound: "web"), "another host's key")
    }

    func testStandingBoundToAnUnknownServerOrAHostWithoutAKeyOffersEveryKey() throws {
        for host in ["stranger", "bare"] {
            var c = AgentConversation(peer: Self.peer, policy: standing())
            XCTAssertEqual(c.reply(to: bind(host)), Self.success)
            XCTAssertEqual(listed(c), ["cert-key", "db-key", "web-key"], host)
            XCTAssertTrue(signs(&c, "db-key", bound: host), host)
        }
    }

    func testStandingForwardedSignsOnlyThroughHostsAllowingForwarding() throws {
        var c = AgentConversation(peer: Self.peer, policy: standing())
        XCTAssertEqual(c.reply(to: bind("web", forwarding: true)), Self.success)
        XCTAssertEqual(c.reply(to: bind("db")), Self.success)
        // Listed as for its destination (a far side may use it beyond the hop), never signed.
        XCTAssertEqual(listed(c), ["db-key"])
        XCTAssertFalse(signs(&c, "db-key", bound: "db"), "web does not allow forwarding")

        var allow = HostChanges()
        allow.agentForwarding = true
        try database.editHost("web", allow)
        XCTAssertTrue(signs(&c, "db-key", bound: "db"), "web allows forwarding now")
        XCTAssertFalse(signs(&c, "web-key", bound: "db"), "still only the destination's keys")

        // A hop through a server no saved host trusts: refused whatever the others allow.
        var stranger = AgentConversation(peer: Self.peer, policy: standing())
        XCTAssertEqual(stranger.reply(to: bind("stranger", forwarding: true)), Self.success)
        XCTAssertEqual(stranger.reply(to: bind("db")), Self.success)
        XCTAssertFalse(signs(&stranger, "db-key", bound: "db"))
    }

    func testAFailedBindIsRefusedEverything() throws {
        for policy in [standing(), session(version: (9, 6)), session(version: (8, 8))] {
            var c = AgentConversation(peer: Self.peer, policy: policy)
            XCTAssertEqual(c.reply(to: bind("web", signedBy: "db")), Self.failure)
            XCTAssertTrue(c.state.bindFailed)
            XCTAssertEqual(listed(c), [])
            XCTAssertFalse(signs(&c, "web-key", data: [1]))
        }
    }

    func testALockedStandingAgentListsAndSignsNothing() throws {
        let lock = AgentLock(sleep: { _ in })
        var c = AgentConversation(peer: Self.peer, policy: standing(lock: lock))
        XCTAssertTrue(lock.lock(SecretBytes(copying: Array("pw".utf8))))
        XCTAssertEqual(listed(c), [])
        XCTAssertFalse(signs(&c, "web-key", data: [1]))
        XCTAssertTrue(lock.unlock(SecretBytes(copying: Array("pw".utf8))))
        XCTAssertEqual(listed(c), ["cert-key", "db-key", "web-key"], "saved keys in name order")
        XCTAssertTrue(signs(&c, "web-key", data: [1]))
    }

    func testABoundHostCertificateIsDecidedThroughItsAuthority() throws {
        let (hostKey, certificate) = try certifiedHostKey(principal: "cert.test")
        try database.addHost(NewHost(name: "cert", hostname: "cert.test", key: "cert-key"))
        var c = AgentConversation(peer: Self.peer, policy: standing())
        XCTAssertEqual(c.reply(to: bind(certificate, hostKey)), Self.success)
        XCTAssertEqual(listed(c), ["cert-key"])
        XCTAssertTrue(signs(&c, "cert-key", sessionID: Self.sessionID(certificate.blob), hostKeyBlob: certificate.blob))
        XCTAssertFalse(signs(&c, "web-key", sessionID: Self.sessionID(certificate.blob), hostKeyBlob: certificate.blob))

        let hops = [SessionHopKey(key: stored["cert-key"]!, host: "cert.test", port: 22)]
        var s = AgentConversation(peer: Self.peer, policy: session(version: (9, 6), hops: hops))
        XCTAssertEqual(s.reply(to: bind(certificate, hostKey)), Self.success)
        XCTAssertEqual(listed(s), ["cert-key"])
        XCTAssertTrue(signs(&s, "cert-key", sessionID: Self.sessionID(certificate.blob), hostKeyBlob: certificate.blob))
    }

    // MARK: The session agent

    private func session(version: (Int, Int), hops: [SessionHopKey]? = nil) -> AgentPolicy {
        let hops = hops ?? [SessionHopKey(key: stored["web-key"]!, host: "web.test", port: 22),
                            SessionHopKey(key: stored["db-key"]!, host: "db.test", port: 22)]
        let path = database.path
        let access = AgentAccessPolicy(rules: .session(hops: hops, sshVersion: (major: version.0, minor: version.1)),
                                       database: { try HostDatabase.openForReading(path: path) })
        return access.agentPolicy(identity: identity)
    }

    func testSessionUnboundIsListedButSignsOnlyForAnSSHThatDoesNotBind() throws {
        var binds = AgentConversation(peer: Self.peer, policy: session(version: (8, 9)))
        XCTAssertEqual(listed(binds), ["web-key", "db-key"])
        XCTAssertFalse(signs(&binds, "web-key", data: [1]), "ssh 8.9 binds first: an unbound signer is not the session's ssh")
        var old = AgentConversation(peer: Self.peer, policy: session(version: (8, 8)))
        XCTAssertTrue(signs(&old, "web-key", data: [1]))
        XCTAssertFalse(signs(&old, "cert-key", data: [1]), "not a key of the session")
    }

    func testSessionBoundSignsEachKeyOnlyForItsHop() throws {
        var c = AgentConversation(peer: Self.peer, policy: session(version: (9, 6)))
        XCTAssertEqual(c.reply(to: bind("db")), Self.success)
        XCTAssertEqual(listed(c), ["db-key"])
        XCTAssertTrue(signs(&c, "db-key", bound: "db"))
        XCTAssertFalse(signs(&c, "web-key", bound: "db"))

        for host in ["stranger", "bare"] {
            var other = AgentConversation(peer: Self.peer, policy: session(version: (9, 6)))
            XCTAssertEqual(other.reply(to: bind(host)), Self.success)
            XCTAssertEqual(listed(other), [], host)
            XCTAssertFalse(signs(&other, "web-key", bound: host), host)
        }
    }

    func testSessionForwardedIsNeverSigned() throws {
        var allow = HostChanges()
        allow.agentForwarding = true
        try database.editHost("web", allow)
        var c = AgentConversation(peer: Self.peer, policy: session(version: (9, 6)))
        XCTAssertEqual(c.reply(to: bind("web", forwarding: true)), Self.success)
        XCTAssertEqual(c.reply(to: bind("db")), Self.success)
        XCTAssertFalse(signs(&c, "db-key", bound: "db"))
    }

    /// One host-key decision per connection to a known host (issue 29's count): the plan
    /// decides the hop's host keys once, and the session agent lists and signs for a
    /// connection bound to one of them on that decision, reading the one handle it was
    /// given. A host key the plan did not accept is still put to the trust core, and a key
    /// trusted after the plan was made counts at the next request.
    func testASessionToAKnownHostDecidesItsHostKeyOnce() throws {
        let before = HostKeyDecisions.made
        let plan = try SSHPlan.load(database, name: "web", user: nil, snippetName: nil)
        XCTAssertEqual(plan.target.acceptedHostKeys.map(\.blob), [hostKeys["web"]!.publicKey.blob])
        XCTAssertEqual(HostKeyDecisions.made - before, 1, "the plan decides its one hop once")

        let identity = self.identity, webKey = stored["web-key"]!
        let policy = SSHAgentPolicy.make(plan: plan, database: database, sshVersion: (9, 6),
                                         identities: { identity(webKey).map { [$0] } ?? [] })
        var c = AgentConversation(peer: Self.peer, policy: policy)
        XCTAssertEqual(c.reply(to: bind("web")), Self.success)
        XCTAssertEqual(listed(c), ["web-key"])
        XCTAssertTrue(signs(&c, "web-key", bound: "web"))
        XCTAssertEqual(HostKeyDecisions.made - before, 1, "listing and signing take the plan's decision")

        var other = AgentConversation(peer: Self.peer, policy: policy)
        XCTAssertEqual(other.reply(to: bind("stranger")), Self.success)
        XCTAssertEqual(listed(other), [], "a host key the plan did not accept is decided, and not trusted")
        XCTAssertGreaterThan(HostKeyDecisions.made - before, 1)
        _ = try KnownHostsStore(database: database).approve(HostLookupName(host: "web.test"), key: hostKeys["stranger"]!.publicKey, source: "scan",
                                                            alongside: [hostKeys["web"]!.publicKey])
        XCTAssertEqual(listed(other), ["web-key"], "trusted during the session: trusted at the next request")
        XCTAssertTrue(signs(&other, "web-key", bound: "stranger"))
    }

    // MARK: Helpers

    static let peer = AgentPeer(pid: 1, uid: 0, gid: 0)
    static let success: [UInt8] = [6]
    static let failure: [UInt8] = [5]

    private var identity: @Sendable (StoredKey) -> AgentIdentity? {
        let keys = userKeys
        let make = Self.identity
        return { stored in keys[stored.name].map { make($0, stored.name) } }
    }

    /// The comments of the keys a request-identities lists.
    private func listed(_ c: AgentConversation) -> [String] {
        var conversation = c
        var r = SSHReader(conversation.reply(to: [11]))
        guard (try? r.readByte()) == 12, let count = try? r.readUInt32() else { return ["(not an identities answer)"] }
        return (0..<count).compactMap { _ in
            _ = try? r.readString()
            return try? r.readText("comment")
        }
    }

    /// A session id per host key, so a bound connection's requests are for its session.
    static func sessionID(_ hostKeyBlob: [UInt8]) -> [UInt8] { Array(hostKeyBlob.suffix(32)) }

    private func bind(_ host: String, forwarding: Bool = false, signedBy signer: String? = nil) -> [UInt8] {
        let key = hostKeys[host]!
        let id = Self.sessionID(key.publicKey.blob)
        return Self.bindMessage(key.publicKey.blob, id, try! hostKeys[signer ?? host]!.sign(id), forwarding)
    }

    private func bind(_ certificate: Certificate, _ key: PrivateKey) -> [UInt8] {
        let id = Self.sessionID(certificate.blob)
        return Self.bindMessage(certificate.blob, id, try! key.sign(id), false)
    }

    static func bindMessage(_ blob: [UInt8], _ sessionID: [UInt8], _ signature: [UInt8], _ forwarding: Bool) -> [UInt8] {
        AgentWire.sessionBind(hostKeyBlob: blob, sessionID: sessionID, signature: signature, forwarding: forwarding)
    }

    /// Whether a sign request with the key called `name` gets a signature.
    private func signs(_ c: inout AgentConversation, _ name: String, data: [UInt8]) -> Bool {
        c.reply(to: AgentWire.signRequest(keyBlob: userKeys[name]!.publicKey.blob, data: data)).first == 14
    }

    /// A user-authentication request for the session bound to `bound`'s host key.
    private func signs(_ c: inout AgentConversation, _ name: String, bound: String) -> Bool {
        let blob = hostKeys[bound]!.publicKey.blob
        return signs(&c, name, sessionID: Self.sessionID(blob), hostKeyBlob: blob)
    }

    private func signs(_ c: inout AgentConversation, _ name: String, sessionID: [UInt8], hostKeyBlob: [UInt8]) -> Bool {
        let key = userKeys[name]!.publicKey
        return signs(&c, name, data: AgentWire.hostboundUserAuth(sessionID: sessionID, keyType: key.type, keyBlob: key.blob, hostKeyBlob: hostKeyBlob))
    }

    /// A host key made here, its host certificate signed by a CA made by ssh-keygen, and
    /// an @cert-authority entry for `principal` in the database.
    private func certifiedHostKey(principal: String) throws -> (PrivateKey, Certificate) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh-keygen") else { throw XCTSkip("ssh-keygen is not installed") }
        let host = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "host")
        let ca = folder + "/ca", pub = folder + "/host.pub"
        try keygen(["-q", "-t", "ed25519", "-N", "", "-f", ca])
        try Data((host.publicKey.line(comment: "host") + "\n").utf8).write(to: URL(fileURLWithPath: pub))
        try keygen(["-q", "-s", ca, "-h", "-I", "host", "-n", principal, pub])
        let line = try String(contentsOfFile: folder + "/host-cert.pub", encoding: .utf8)
        guard case .certificate(let certificate) = try PresentedHostKey.parse(line) else { throw XCTSkip("not a certificate") }
        let caLine = try String(contentsOfFile: ca + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        _ = try KnownHostsStore(database: database).importKnownHosts(Array("@cert-authority \(principal) \(caLine)\n".utf8))
        return (host, certificate)
    }

    private func keygen(_ args: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        p.arguments = args
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "ssh-keygen \(args)")
    }
}
