// Keys on a PKCS#11 token in the standing agent: a real SoftHSM2 token (SoftHSMProcessToken)
// whose public keys are saved located `token` with where they are (TokenKeys, as `keys
// import-token` saves them), and the standing agent, driven in-process through the Agent
// library's conversation against a real SQLite database, signs through the token with
// TokenKeySigners: only for the saved host that names the key (the vault keys' rule), with
// the PIN asked once per agent session, a wrong PIN refused, logged and not kept, and the PIN
// forgotten on drop-keys and agent lock.
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import Agent
import HostStore
import KeyFormats
import SecureMemory
import Sessions
import System
import TestSupport
import Tokens

/// The PINs "typed", from a list (the last repeated), counting how often one was asked.
private final class PINAnswers: @unchecked Sendable {
    private let mutex = NSLock()
    private var answers: [String?]
    private var count = 0
    init(_ answers: [String?]) { self.answers = answers }
    var asked: Int { mutex.lock(); defer { mutex.unlock() }; return count }
    func next() -> SecretBytes? {
        mutex.lock(); defer { mutex.unlock() }
        count += 1
        let answer = answers.count > 1 ? answers.removeFirst() : answers[0]
        return answer.map { SecretBytes(copying: Array($0.utf8)) }
    }
}

final class TokenKeyAgentTests: XCTestCase {
    private var tmp: TempFolder!
    private var database: HostDatabase!
    /// The token's public keys by saved name (tok-k1: RSA, tok-k2: P-256).
    private var tokenKeys: [String: PublicKey] = [:]
    private var vaultKey: PrivateKey!
    private var requests: AgentRequests!

    override func setUpWithError() throws {
        try SoftHSMProcessToken.require()
        tmp = try TempFolder()
        database = try HostDatabase.open(path: tmp.file("hostbook.db"))
        let module = try TokenModule.load(path: SoftHSMProcessToken.module)
        let token = try module.token(label: SoftHSMProcessToken.label)
        let objects = try module.publicKeys(on: token)
        XCTAssertEqual(objects.map(\.label).sorted(), ["k1", "k2"])
        try TokenKeys(database: database).insert(objects.map { object in
            tokenKeys["tok-" + object.label] = object.publicKey
            return ("tok-" + object.label, object.publicKey,
                    TokenKeyPlace(module: SoftHSMProcessToken.module, tokenLabel: token.label, tokenManufacturer: token.manufacturer,
                                  tokenModel: token.model, tokenSerial: token.serial, objectID: object.id, objectLabel: object.label))
        })
        vaultKey = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "db-key")
        try KeyStore(database: database).insert(NewKey(uuid: UUIDString.random(), name: "db-key", publicKey: vaultKey.publicKey,
                                                       comment: "db-key", format: "openssh"))
        try database.addHost(NewHost(name: "web", hostname: "web.test", port: 22, user: "alice", key: "tok-k2"))
        try database.addHost(NewHost(name: "db", hostname: "db.test", port: 22, user: "alice", key: "db-key"))
        var hostKeys: [String: PrivateKey] = [:]
        var lines = ""
        for name in ["web", "db"] {
            let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: name)
            hostKeys[name] = key
            lines += "\(name).test \(key.publicKey.line(comment: ""))\n"
        }
        _ = try KnownHostsStore(database: database).importKnownHosts(Array(lines.utf8))
        requests = AgentRequests(hostKeys: hostKeys)
    }

    override func tearDown() {
        database = nil
        tmp = nil
    }

    private static let peer = AgentPeer(pid: getpid(), uid: getuid(), gid: getgid(), process: ProcessIdentity(pid: getpid()))

    /// The standing agent with the token provider, its PINs answered by `pins`.
    private func standingAgent(_ log: AgentLogWriter, pins: PINAnswers) -> (StandingAgent, TokenKeySigners) {
        let path = tmp.file("hostbook.db"), vaultKey = self.vaultKey!
        let signers = TokenKeySigners(place: { key in try TokenKeys(database: HostDatabase.open(path: path)).place(of: key) },
                                      askPIN: { _, _ in pins.next() })
        let agent = StandingAgent(database: database, log: log,
                                  readPrivateKey: { stored in
                                      guard stored.name == "db-key" else { throw AgentKeyUnavailable(message: "not in the vault", hint: nil) }
                                      return vaultKey
                                  },
                                  signers: KeySigners([.token: signers]))
        return (agent, signers)
    }

    /// Signs in a new connection bound to `host`; the signature blob, or nil when refused.
    private func sign(_ agent: StandingAgent, _ name: String, bound host: String) throws -> [UInt8]? {
        var c = AgentConversation(peer: Self.peer, policy: agent.policy)
        XCTAssertEqual(c.reply(to: requests.bind(host)), [6])
        let key = tokenKeys[name]!
        let data = requests.userAuth(key, bound: host)
        let reply = c.reply(to: AgentRequests.signRequest(key, data: data))
        guard reply.first == 14 else { return nil }
        var r = SSHReader(Array(reply.dropFirst()))
        let blob = try r.readString()
        XCTAssertTrue(key.verifies(signatureBlob: blob, over: data), "the token's signature verifies")
        return blob
    }

    func testATokenKeySignsForItsSavedHostOnlyWithThePINAskedOnce() throws {
        let log = try AgentLogWriter(database: HostDatabase.open(path: tmp.file("hostbook.db")))
        defer { log.stop() }
        let pins = PINAnswers([SoftHSMProcessToken.pin])
        let (agent, _) = standingAgent(log, pins: pins)

        var web = AgentConversation(peer: Self.peer, policy: agent.policy)
        XCTAssertEqual(web.reply(to: requests.bind("web")), [6])
        XCTAssertEqual(AgentRequests.listed(web), ["tok-k2"], "the web host names the token key, and only it")
        XCTAssertNotNil(try sign(agent, "tok-k2", bound: "web"))
        XCTAssertNotNil(try sign(agent, "tok-k2", bound: "web"))
        XCTAssertEqual(pins.asked, 1, "the PIN is asked once per agent session")

        var db = AgentConversation(peer: Self.peer, policy: agent.policy)
        XCTAssertEqual(db.reply(to: requests.bind("db")), [6])
        XCTAssertEqual(AgentRequests.listed(db), ["db-key"], "another saved host is not offered the token key")
        XCTAssertNil(try sign(agent, "tok-k2", bound: "db"), "and it is refused there")

        log.flush()
        let entries = try database.agentLog()
        XCTAssertEqual(entries.map(\.signed), [true, true, false])
        XCTAssertEqual(entries.map(\.keyName), ["tok-k2", "tok-k2", "tok-k2"])
        XCTAssertEqual(entries.map(\.destination), ["web", "web", "db"])
    }

    func testAWrongPINRefusesIsLoggedAndNothingIsHeld() throws {
        let log = try AgentLogWriter(database: HostDatabase.open(path: tmp.file("hostbook.db")))
        defer { log.stop() }
        let pins = PINAnswers(["0000", nil, SoftHSMProcessToken.pin])
        let (agent, signers) = standingAgent(log, pins: pins)

        XCTAssertNil(try sign(agent, "tok-k2", bound: "web"), "a wrong PIN refuses the signature")
        XCTAssertTrue(signers.pins.isEmpty, "a refused PIN is not held")
        XCTAssertNil(try sign(agent, "tok-k2", bound: "web"), "nobody answers: refused, nothing was kept to sign with")
        XCTAssertNotNil(try sign(agent, "tok-k2", bound: "web"))
        XCTAssertEqual(pins.asked, 3, "each signature without a held PIN asks again")

        log.flush()
        let entries = try database.agentLog()
        // The two refusals (same key and destination, within the window) are logged once.
        XCTAssertEqual(entries.map(\.signed), [false, true])
        XCTAssertTrue(entries[0].reason?.contains("wrongPIN") == true, entries[0].reason ?? "no reason")
    }

    func testDropKeysAndAgentLockForgetThePIN() throws {
        let log = try AgentLogWriter(database: HostDatabase.open(path: tmp.file("hostbook.db")))
        defer { log.stop() }
        let pins = PINAnswers([SoftHSMProcessToken.pin])
        let (agent, signers) = standingAgent(log, pins: pins)

        XCTAssertNotNil(try sign(agent, "tok-k2", bound: "web"))
        XCTAssertFalse(signers.pins.isEmpty)
        agent.dropKeys()
        XCTAssertTrue(signers.pins.isEmpty, "drop-keys (vault lock) forgets the PIN")
        XCTAssertNotNil(try sign(agent, "tok-k2", bound: "web"))
        XCTAssertEqual(pins.asked, 2, "and the next signature asks again")

        // ssh-add -x: SSH_AGENTC_LOCK with a passphrase.
        var c = AgentConversation(peer: Self.peer, policy: agent.policy)
        var w = SSHWriter()
        w.writeByte(22)
        w.writeString(Array("lock".utf8))
        XCTAssertEqual(c.reply(to: w.bytes), [6])
        XCTAssertTrue(signers.pins.isEmpty, "agent lock forgets the PIN")
    }

    /// The client's RSA flags choose the hash; plain ssh-rsa (SHA-1) is refused (an unbound
    /// client, such as ssh-keygen -Y sign, is offered every key).
    func testTheRSASignFlagsChooseTheHash() throws {
        let log = try AgentLogWriter(database: HostDatabase.open(path: tmp.file("hostbook.db")))
        defer { log.stop() }
        let (agent, _) = standingAgent(log, pins: PINAnswers([SoftHSMProcessToken.pin]))
        var c = AgentConversation(peer: Self.peer, policy: agent.policy)
        let key = tokenKeys["tok-k1"]!
        for (flags, algorithm) in [(AgentSignFlags.rsaSHA256, "rsa-sha2-256"), (AgentSignFlags.rsaSHA512, "rsa-sha2-512")] {
            let reply = c.reply(to: AgentRequests.signRequest(key, data: [1, 2, 3], flags: flags))
            XCTAssertEqual(reply.first, 14)
            var r = SSHReader(Array(reply.dropFirst()))
            let signature = try r.readString()
            var s = SSHReader(signature)
            XCTAssertEqual(try s.readText(), algorithm)
            XCTAssertTrue(key.verifies(signatureBlob: signature, over: [1, 2, 3]))
        }
        XCTAssertEqual(c.reply(to: AgentRequests.signRequest(key, data: [1, 2, 3], flags: 0)), [5], "ssh-rsa is refused")
    }
}
