// Keys restricted to SSHSIG namespaces (`keys edit NAME --namespace NS`), decided by the one
// access policy (AgentAccessPolicy rule 6) and driven in-process through the Agent library's
// conversation against a real SQLite database: such a key is listed and signs SSHSIG data in
// its namespaces only on a connection with no binding; it never signs user authentication
// or other data, and a bound connection (a server) is never offered it.
import Foundation
import TestSupport
import XCTest
@testable import Agent
import Sessions
import HostStore
import KeyFormats

final class AgentNamespaceKeyTests: XCTestCase {
    private var folder: String!
    private var database: HostDatabase!
    private var userKeys: [String: PrivateKey] = [:]
    private var stored: [String: StoredKey] = [:]
    private var hostKeys: [String: PrivateKey] = [:]

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("agent-namespace-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        database = try HostDatabase.open(path: folder + "/hostbook.db")
        for name in ["git-key", "login-key"] {
            let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: name)
            userKeys[name] = key
            stored[name] = try KeyStore(database: database).insert(NewKey(uuid: UUIDString.random(), name: name, publicKey: key.publicKey,
                                                                          comment: name, format: "openssh"))
        }
        try KeyNamespaces(database: database).set(["git"], for: stored["git-key"]!)
        // A saved host whose own key is the git key, and a server nobody trusts.
        try database.addHost(NewHost(name: "web", hostname: "web.test", key: "git-key"))
        var lines = ""
        for name in ["web", "stranger"] {
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

    private func standing() -> AgentPolicy {
        let database = self.database!
        return AgentAccessPolicy(rules: .standing, database: { database }).agentPolicy(identity: identity)
    }

    func testUnboundTheGitKeyIsListedAndSignsOnlyGitSSHSIG() throws {
        var c = AgentConversation(peer: Self.peer, policy: standing())
        XCTAssertEqual(listed(c), ["git-key", "login-key"], "an unbound client (ssh-keygen -Y sign) sees it")
        XCTAssertTrue(signs(&c, "git-key", data: Self.sshsig("git")), "git's signature")
        XCTAssertFalse(signs(&c, "git-key", data: Self.sshsig("file")), "another namespace")
        XCTAssertFalse(signs(&c, "git-key", data: [1, 2, 3]), "data that is no SSHSIG request (ssh-add -T)")
        XCTAssertFalse(signs(&c, "git-key", data: Self.userAuth(userKeys["git-key"]!.publicKey, host: hostKeys["stranger"]!)),
                       "user authentication, even unbound")
        // The key without namespaces signs everything it signed before.
        XCTAssertTrue(signs(&c, "login-key", data: Self.sshsig("file")))
        XCTAssertTrue(signs(&c, "login-key", data: [1, 2, 3]))
    }

    func testABoundConnectionIsNeverOfferedTheGitKeyNorGetsItsSignature() throws {
        // An unknown server is offered every key but this one; a saved host whose key it
        // is gets nothing.
        for (host, expected) in [("stranger", ["login-key"]), ("web", [])] {
            var c = AgentConversation(peer: Self.peer, policy: standing())
            XCTAssertEqual(c.reply(to: bind(host)), Self.success)
            XCTAssertEqual(listed(c), expected, host)
            XCTAssertFalse(signs(&c, "git-key", data: Self.userAuth(userKeys["git-key"]!.publicKey, host: hostKeys[host]!)), host)
            XCTAssertFalse(signs(&c, "git-key", data: Self.sshsig("git")), host)
        }
        var c = AgentConversation(peer: Self.peer, policy: standing())
        XCTAssertEqual(c.reply(to: bind("stranger")), Self.success)
        XCTAssertTrue(signs(&c, "login-key", data: Self.userAuth(userKeys["login-key"]!.publicKey, host: hostKeys["stranger"]!)))
    }

    func testTheSessionAgentRefusesAHopKeyRestrictedToNamespaces() throws {
        let path = database.path
        let hops = [SessionHopKey(key: stored["git-key"]!, host: "web.test", port: 22)]
        let access = AgentAccessPolicy(rules: .session(hops: hops, sshVersion: (major: 9, minor: 6)),
                                       database: { try HostDatabase.openForReading(path: path) })
        var c = AgentConversation(peer: Self.peer, policy: access.agentPolicy(identity: identity))
        XCTAssertEqual(c.reply(to: bind("web")), Self.success)
        XCTAssertEqual(listed(c), [])
        XCTAssertFalse(signs(&c, "git-key", data: Self.userAuth(userKeys["git-key"]!.publicKey, host: hostKeys["web"]!)))
    }

    func testSeveralNamespacesAndLiftingThem() throws {
        try KeyNamespaces(database: database).set(["git", "file"], for: stored["git-key"]!)
        var c = AgentConversation(peer: Self.peer, policy: standing())
        XCTAssertTrue(signs(&c, "git-key", data: Self.sshsig("file")))
        XCTAssertTrue(signs(&c, "git-key", data: Self.sshsig("git")))
        XCTAssertFalse(signs(&c, "git-key", data: Self.sshsig("email")))

        try KeyNamespaces(database: database).set([], for: stored["git-key"]!)
        var bound = AgentConversation(peer: Self.peer, policy: standing())
        XCTAssertEqual(bound.reply(to: bind("web")), Self.success)
        XCTAssertEqual(listed(bound), ["git-key"], "lifted: offered to its host again")
        XCTAssertTrue(signs(&bound, "git-key", data: Self.userAuth(userKeys["git-key"]!.publicKey, host: hostKeys["web"]!)))
    }

    /// A git key saved with `--confirm` asks before each SSHSIG signature in its namespaces
    /// (the user's answer decides), and a request rule 6 refuses is refused without asking,
    /// logged with the decision `namespace`.
    func testAConfirmGitKeyAsksForGitSignaturesAndANamespaceRefusalSaysSo() throws {
        try KeyStore(database: database).update(name: "git-key", KeyChanges(confirm: true))
        let approver = Answers([.deny, .allowOnce])
        let hows = Hows()
        let database = self.database!
        let policy = AgentAccessPolicy(rules: .standing, approvals: AgentApprovals(approver: approver), database: { database })
            .agentPolicy(identity: identity, outcome: { _, _, o in hows.add(o) })
        var c = AgentConversation(peer: Self.peer, policy: policy)
        XCTAssertFalse(signs(&c, "git-key", data: Self.sshsig("git")), "asked, denied")
        XCTAssertTrue(signs(&c, "git-key", data: Self.sshsig("git")), "asked, allowed")
        XCTAssertEqual(approver.count, 2)
        XCTAssertFalse(signs(&c, "git-key", data: Self.sshsig("file")))
        XCTAssertFalse(signs(&c, "git-key", data: Self.userAuth(userKeys["git-key"]!.publicKey, host: hostKeys["stranger"]!)))
        XCTAssertEqual(approver.count, 2, "a request outside the namespaces is never asked about")
        XCTAssertEqual(hows.list, ["denied", "prompt", "namespace", "namespace"])

        // Bound to a server, the git key is not even offered (rule 6 for listing): the
        // Agent library refuses it before the policy is asked, so no decision.
        var bound = AgentConversation(peer: Self.peer, policy: policy)
        XCTAssertEqual(bound.reply(to: bind("stranger")), Self.success)
        XCTAssertFalse(signs(&bound, "git-key", data: Self.userAuth(userKeys["git-key"]!.publicKey, host: hostKeys["stranger"]!)))
        XCTAssertEqual(hows.list.count, 5)
        XCTAssertEqual(hows.list.last, .some(nil))
        // Nor has a refusal by the other rules: web's own key is the git key, so rule 5
        // refuses the login key there.
        var web = AgentConversation(peer: Self.peer, policy: policy)
        XCTAssertEqual(web.reply(to: bind("web")), Self.success)
        XCTAssertFalse(signs(&web, "login-key", data: Self.userAuth(userKeys["login-key"]!.publicKey, host: hostKeys["web"]!)))
        XCTAssertEqual(hows.list.count, 6)
        XCTAssertEqual(hows.list.last, .some(nil))
        XCTAssertEqual(approver.count, 2)
    }

    // MARK: Helpers

    static let peer = AgentPeer(pid: 1, uid: 0, gid: 0)
    static let success: [UInt8] = [6]

    private var identity: @Sendable (StoredKey) -> AgentIdentity? {
        let keys = userKeys
        return { stored in keys[stored.name].map { AgentIdentity(key: $0, comment: stored.name) } }
    }

    private func listed(_ c: AgentConversation) -> [String] { AgentRequests.listed(c) }

    static func sessionID(_ hostKeyBlob: [UInt8]) -> [UInt8] { AgentRequests.sessionID(hostKeyBlob) }

    private func bind(_ host: String) -> [UInt8] { AgentRequests(hostKeys: hostKeys).bind(host) }

    /// What `ssh-keygen -Y sign -n NAMESPACE` hands the agent (PROTOCOL.sshsig §3).
    static func sshsig(_ namespace: String) -> [UInt8] {
        AgentWire.sshsig(namespace: namespace, hash: [UInt8](repeating: 7, count: 64))
    }

    /// A hostbound user-authentication request for the session bound to `host`.
    static func userAuth(_ key: PublicKey, host: PrivateKey) -> [UInt8] {
        AgentWire.hostboundUserAuth(sessionID: sessionID(host.publicKey.blob), keyType: key.type, keyBlob: key.blob, hostKeyBlob: host.publicKey.blob)
    }

    private func signs(_ c: inout AgentConversation, _ name: String, data: [UInt8]) -> Bool {
        c.reply(to: AgentRequests.signRequest(userKeys[name]!.publicKey, data: data)).first == 14
    }
}

/// Answers from a list (the last one repeated) and counts the questions.
private final class Answers: AgentApprover, @unchecked Sendable {
    private let mutex = NSLock()
    private var answers: [ApprovalAnswer]
    private var asked = 0
    init(_ answers: [ApprovalAnswer]) { self.answers = answers }
    func ask(_ request: ApprovalRequest, timeoutSeconds: Int) -> ApprovalAnswer {
        mutex.lock()
        defer { mutex.unlock() }
        asked += 1
        return answers.count > 1 ? answers.removeFirst() : answers[0]
    }
    var count: Int { mutex.lock(); defer { mutex.unlock() }; return asked }
}

/// How each signature request was decided, in order.
private final class Hows: @unchecked Sendable {
    private let mutex = NSLock()
    private var hows: [String?] = []
    func add(_ o: AgentSignOutcome) { mutex.lock(); hows.append(o.how); mutex.unlock() }
    var list: [String?] { mutex.lock(); defer { mutex.unlock() }; return hows }
}
