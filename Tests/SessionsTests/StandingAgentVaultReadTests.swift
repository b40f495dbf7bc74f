// The standing agent reads a key's private half from the vault without its lock held: while
// a key-status request waits on a slow vault read of one key, a signature with another key
// (on another connection) is made; requests for the key being read wait for that one read
// (the vault is read once). Driven in-process through the Agent library's conversation,
// with the agent's own vault-reading function replaced by one that waits until the test
// lets it go, against a real SQLite database.
import Foundation
import TestSupport
import XCTest
@testable import Agent
import Sessions
import HostStore
import KeyFormats
import SecureMemory
import System
#if canImport(Glibc)
import Glibc
#endif

final class StandingAgentVaultReadTests: XCTestCase {
    private var folder: String!
    private var database: HostDatabase!
    private var userKeys: [String: PrivateKey] = [:]

    /// What happened, in order, and how often each key was read from the "vault".
    private struct Record {
        var events: [String] = []
        var reads: [String: Int] = [:]
        var slowReadMayEnd = false
    }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("standing-read-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        database = try HostDatabase.open(path: folder + "/hostbook.db")
        for name in ["slow-key", "quick-key"] {
            let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: name)
            userKeys[name] = key
            _ = try KeyStore(database: database).insert(NewKey(uuid: UUIDString.random(), name: name, publicKey: key.publicKey,
                                                               comment: name, format: "openssh"))
        }
    }

    override func tearDown() {
        database = nil
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }

    func testASlowVaultReadStallsNoOtherKeyAndIsDoneOnce() throws {
        let record = Lock(Record())
        let keys = userKeys
        let log = try AgentLogWriter(database: try HostDatabase.open(path: folder + "/hostbook.db"))
        defer { log.stop() }
        let agent = StandingAgent(database: database, log: log, readPrivateKey: { stored in
            record.withLock { r in
                r.reads[stored.name, default: 0] += 1
                r.events.append("read \(stored.name)")
            }
            record.broadcast()
            if stored.name == "slow-key" {
                record.withLock { r in while !r.slowReadMayEnd { record.wait() } }
            }
            return keys[stored.name]!
        })

        let slowBlob = userKeys["slow-key"]!.publicKey.blob
        // Connection 1: key-status of the slow key, whose read waits.
        let status = Lock<AgentKeyStatus?>(nil)
        let statusThread = try System.Thread.spawn {
            var c = AgentConversation(peer: Self.peer, policy: agent.policy)
            _ = c.reply(to: [11])
            let reply = c.reply(to: AgentKeyStatus.request(keyBlob: slowBlob))
            status.withLock { $0 = AgentKeyStatus.parse(reply: reply) }
        }
        record.withLock { r in while r.reads["slow-key"] == nil { record.wait() } }
        // Connection 2: a signature with the slow key, which waits for that read.
        let signedSlow = Lock(false)
        let slowSignThread = try System.Thread.spawn {
            var c = AgentConversation(peer: Self.peer, policy: agent.policy)
            _ = c.reply(to: [11])
            let signed = Self.signs(&c, slowBlob)
            signedSlow.withLock { $0 = signed }
        }

        // Connection 3, while the slow read is pending: a signature with the other key.
        // (If it waited for the slow read, the test lets that read end after a minute, and
        // the order of the events says so.)
        let quickSigned = Lock<Bool?>(nil)
        let quickThread = try System.Thread.spawn {
            var c = AgentConversation(peer: Self.peer, policy: agent.policy)
            _ = c.reply(to: [11])
            let signed = Self.signs(&c, keys["quick-key"]!.publicKey.blob)
            quickSigned.withLock { $0 = signed }
            record.withLock { $0.events.append("signed quick-key") }
            record.broadcast()
        }
        let safetyNet = Monotonic.seconds() + 60
        record.withLock { r in
            while !r.events.contains("signed quick-key") { if !record.wait(until: safetyNet) { break } }
            r.events.append("slow read let go")
            r.slowReadMayEnd = true
        }
        record.broadcast()
        for thread in [statusThread, slowSignThread, quickThread] { pthread_join(thread, nil) }

        XCTAssertEqual(quickSigned.withLock { $0 }, true)
        XCTAssertEqual(record.withLock { $0.events }, ["read slow-key", "read quick-key", "signed quick-key", "slow read let go"])
        XCTAssertEqual(status.withLock { $0 }, .ready)
        XCTAssertTrue(signedSlow.withLock { $0 })
        XCTAssertEqual(record.withLock { $0.reads }, ["slow-key": 1, "quick-key": 1], "one vault read per key")
    }

    static let peer = AgentPeer(pid: 1, uid: 0, gid: 0)

    private static func signs(_ c: inout AgentConversation, _ blob: [UInt8]) -> Bool {
        c.reply(to: AgentWire.signRequest(keyBlob: blob, data: [1, 2, 3])).first == 14
    }
}
