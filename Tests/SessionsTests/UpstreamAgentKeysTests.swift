// Keys another agent holds, under hostbook's rule: OpenSSH's real ssh-agent (started here,
// its socket in a private temporary folder, stopped by its pid) holds keys hostbook has
// never seen as private keys; their public halves are saved located `upstream` (as `keys
// import-agent` saves them), and the standing agent, driven in-process through the Agent
// library's conversation against a real SQLite database, offers each only where the
// access rules allow (the saved host that names it), signs through ssh-agent with the
// client's flags, asks for approval when the key is saved with --confirm, and logs every
// outcome; an upstream that is gone is a logged refusal. ssh-agent's own keys are never
// changed.
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import Agent
import Sessions
import HostStore
import KeyFormats
import System
import TestSupport

/// Answers from a list (the last repeated), recording every request.
private final class ListApprover: AgentApprover, @unchecked Sendable {
    let mutex = NSLock()
    var answers: [ApprovalAnswer]
    var asked: [ApprovalRequest] = []
    init(_ answers: [ApprovalAnswer]) { self.answers = answers }
    func ask(_ request: ApprovalRequest, timeoutSeconds: Int) -> ApprovalAnswer {
        mutex.lock(); defer { mutex.unlock() }
        asked.append(request)
        return answers.count > 1 ? answers.removeFirst() : answers[0]
    }
}

final class UpstreamAgentKeysTests: XCTestCase {
    private var tmp: TempFolder!
    private var database: HostDatabase!
    private var upstream: Process!
    private var socket: String!
    /// The public keys ssh-agent holds, by name; hostbook's one vault key, held in memory.
    private var upstreamKeys: [String: PublicKey] = [:]
    private var vaultKey: PrivateKey!
    private var hostKeys: [String: PrivateKey] = [:]

    override func setUpWithError() throws {
        guard let keygen = Tool.sshKeygen, let agentPath = Tool.which("ssh-agent"), let add = Tool.which("ssh-add") else {
            throw XCTSkip("needs OpenSSH's ssh-keygen, ssh-agent and ssh-add")
        }
        tmp = try TempFolder()
        socket = tmp.file("upstream.sock")
        upstream = try Self.startSSHAgent(agentPath, socket: socket)
        for (name, type) in [("far-key", "ed25519"), ("far-rsa", "rsa")] {
            let path = tmp.file(name)
            XCTAssertEqual(try Tool.run(keygen, ["-q", "-t", type, "-N", "", "-C", name, "-f", path]).status, 0)
            let added = try Tool.run(add, ["-q", path], environment: ["SSH_AUTH_SOCK": socket, "PATH": "/usr/bin:/bin"])
            XCTAssertEqual(added.status, 0, added.stderr)
            upstreamKeys[name] = try PublicKeyLine.parse(try String(contentsOfFile: path + ".pub", encoding: .utf8)).key
            try FileManager.default.removeItem(atPath: path)
        }
        database = try HostDatabase.open(path: tmp.file("hostbook.db"))
        let store = KeyStore(database: database)
        for (name, key) in upstreamKeys {
            let saved = try store.insert(NewKey(uuid: UUIDString.random(), name: name, publicKey: key, comment: name, format: "agent", location: .upstream))
            XCTAssertEqual(saved.location, .upstream)
        }
        vaultKey = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "db-key")
        try store.insert(NewKey(uuid: UUIDString.random(), name: "db-key", publicKey: vaultKey.publicKey, comment: "db-key", format: "openssh"))
        try database.addHost(NewHost(name: "web", hostname: "web.test", port: 22, user: "alice", key: "far-key"))
        try database.addHost(NewHost(name: "db", hostname: "db.test", port: 22, user: "alice", key: "db-key"))
        var lines = ""
        for name in ["web", "db"] {
            let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: name)
            hostKeys[name] = key
            lines += "\(name).test \(key.publicKey.line(comment: ""))\n"
        }
        _ = try KnownHostsStore(database: database).importKnownHosts(Array(lines.utf8))
    }

    override func tearDown() {
        stopUpstream()
        database = nil
        tmp = nil
    }

    /// `ssh-agent -D -a SOCKET`: in the foreground, ready once it has printed its
    /// environment (it prints it after it listens).
    private static func startSSHAgent(_ path: String, socket: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = ["-D", "-a", socket]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        var printed = Data()
        while !String(decoding: printed, as: UTF8.self).contains("Agent pid") {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw XCTSkip("ssh-agent did not start") }
            printed.append(chunk)
        }
        return p
    }

    private func stopUpstream() {
        guard let upstream, upstream.isRunning else { return }
        kill(upstream.processIdentifier, SIGTERM)
        upstream.waitUntilExit()
    }

    private func standingAgent(_ log: AgentLogWriter, approver: (any AgentApprover)? = nil) -> StandingAgent {
        let vaultKey = self.vaultKey!
        return StandingAgent(database: database, log: log,
                             readPrivateKey: { stored in
                                 guard stored.name == "db-key" else { throw AgentKeyUnavailable(message: "not in the vault", hint: nil) }
                                 return vaultKey
                             },
                             signers: KeySigners([.upstream: UpstreamKeySigners(sockets: [socket])]),
                             approver: approver)
    }

    private static let peer = AgentPeer(pid: getpid(), uid: getuid(), gid: getgid(), process: ProcessIdentity(pid: getpid()))

    func testAnUpstreamKeyIsOfferedOnlyToItsSavedHostAndSignsThroughTheUpstream() throws {
        let log = try AgentLogWriter(database: HostDatabase.open(path: tmp.file("hostbook.db")))
        defer { log.stop() }
        let agent = standingAgent(log)

        var web = AgentConversation(peer: Self.peer, policy: agent.policy)
        XCTAssertEqual(web.reply(to: bind("web")), [6])
        XCTAssertEqual(listed(web), ["far-key"], "the web host names the upstream key, and only it")
        let data = userAuth("far-key", bound: "web")
        let reply = web.reply(to: signRequest(upstreamKeys["far-key"]!, data: data))
        XCTAssertEqual(reply.first, 14, "signed through ssh-agent")
        var r = SSHReader(Array(reply.dropFirst()))
        XCTAssertTrue(upstreamKeys["far-key"]!.verifies(signatureBlob: try r.readString(), over: data))

        var db = AgentConversation(peer: Self.peer, policy: agent.policy)
        XCTAssertEqual(db.reply(to: bind("db")), [6])
        XCTAssertEqual(listed(db), ["db-key"], "another saved host is not offered the upstream key")
        XCTAssertEqual(db.reply(to: signRequest(upstreamKeys["far-key"]!, data: userAuth("far-key", bound: "db"))), [5], "and it is refused there")

        log.flush()
        let entries = try database.agentLog()
        XCTAssertEqual(entries.map(\.signed), [true, false])
        XCTAssertEqual(entries.map(\.keyName), ["far-key", "far-key"], "the log names the upstream key")
        XCTAssertEqual(entries.map(\.destination), ["web", "db"])
        XCTAssertEqual(try upstreamFingerprints(), Set(upstreamKeys.values.map(\.sha256Fingerprint)), "ssh-agent's keys are unchanged")
    }

    func testApprovalsApplyToAnUpstreamKey() throws {
        try KeyStore(database: database).update(name: "far-key", KeyChanges(confirm: true))
        let log = try AgentLogWriter(database: HostDatabase.open(path: tmp.file("hostbook.db")))
        defer { log.stop() }
        let approver = ListApprover([.deny, .allowOnce])
        let agent = standingAgent(log, approver: approver)
        for _ in 0..<2 {
            var c = AgentConversation(peer: Self.peer, policy: agent.policy)
            XCTAssertEqual(c.reply(to: bind("web")), [6])
            _ = c.reply(to: signRequest(upstreamKeys["far-key"]!, data: userAuth("far-key", bound: "web")))
        }
        log.flush()
        let entries = try database.agentLog()
        XCTAssertEqual(entries.map(\.signed), [false, true])
        XCTAssertEqual(entries.map(\.decision), ["denied", "prompt"])
        XCTAssertEqual(approver.asked.count, 2)
        XCTAssertEqual(approver.asked[0].key.name, "far-key")
        guard case .savedHosts(let hosts, _) = approver.asked[0].destination else { return XCTFail("\(approver.asked[0].destination)") }
        XCTAssertEqual(hosts.map(\.name), ["web"])
    }

    /// The client's RSA flags reach ssh-agent: rsa-sha2-256 and rsa-sha2-512 signatures come
    /// back as asked (an unbound client, such as ssh-keygen -Y sign, gets every key).
    func testTheRSASignFlagsAreForwarded() throws {
        let log = try AgentLogWriter(database: HostDatabase.open(path: tmp.file("hostbook.db")))
        defer { log.stop() }
        var c = AgentConversation(peer: Self.peer, policy: standingAgent(log).policy)
        let key = upstreamKeys["far-rsa"]!
        for (flags, algorithm) in [(AgentSignFlags.rsaSHA256, "rsa-sha2-256"), (AgentSignFlags.rsaSHA512, "rsa-sha2-512")] {
            let reply = c.reply(to: signRequest(key, data: [1, 2, 3], flags: flags))
            XCTAssertEqual(reply.first, 14)
            var r = SSHReader(Array(reply.dropFirst()))
            let signature = try r.readString()
            var s = SSHReader(signature)
            XCTAssertEqual(try s.readText(), algorithm)
            XCTAssertTrue(key.verifies(signatureBlob: signature, over: [1, 2, 3]))
        }
    }

    func testAnUpstreamThatIsGoneIsALoggedRefusal() throws {
        let log = try AgentLogWriter(database: HostDatabase.open(path: tmp.file("hostbook.db")))
        defer { log.stop() }
        let agent = standingAgent(log)
        stopUpstream()
        var c = AgentConversation(peer: Self.peer, policy: agent.policy)
        XCTAssertEqual(c.reply(to: bind("web")), [6])
        XCTAssertEqual(listed(c), ["far-key"], "still listed: the refusal is the signature's, and logged")
        XCTAssertEqual(c.reply(to: signRequest(upstreamKeys["far-key"]!, data: userAuth("far-key", bound: "web"))), [5])
        let status = AgentKeyStatus.parse(reply: c.reply(to: AgentKeyStatus.request(keyBlob: upstreamKeys["far-key"]!.blob)))
        guard case .unavailable? = status else { return XCTFail("key-status: \(String(describing: status))") }
        log.flush()
        let entries = try database.agentLog()
        XCTAssertEqual(entries.map(\.signed), [false])
        XCTAssertEqual(entries.first?.keyName, "far-key")
        XCTAssertTrue(entries.first?.reason?.contains("notRunning") == true, entries.first?.reason ?? "no reason")
    }

    // MARK: Requests

    private func upstreamFingerprints() throws -> Set<String> {
        Set(try UpstreamAgent(socket: socket).identities().compactMap { $0.publicKey?.sha256Fingerprint })
    }

    private func listed(_ c: AgentConversation) -> [String] { AgentRequests.listed(c) }
    private func bind(_ host: String) -> [UInt8] { AgentRequests(hostKeys: hostKeys).bind(host) }
    private func userAuth(_ name: String, bound host: String) -> [UInt8] {
        AgentRequests(hostKeys: hostKeys).userAuth(upstreamKeys[name]!, bound: host)
    }
    private func signRequest(_ key: PublicKey, data: [UInt8], flags: UInt32 = 0) -> [UInt8] {
        AgentRequests.signRequest(key, data: data, flags: flags)
    }
}
