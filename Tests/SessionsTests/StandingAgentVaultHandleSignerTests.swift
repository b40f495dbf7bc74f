// A key whose vault item is a handle (KeyLocation: a security key's) signs through the
// VaultHandleSigner registered for its location in KeySigners: the standing agent reads the
// handle once through its own vault read (kept until a wipe), hands it to that signer, and
// logs the signer's refusal with its reason. The signer here signs with the key it is handed
// (it stands for the authenticator: the agent's policy is what is under test), in-process,
// against a real SQLite database.
import Foundation
import TestSupport
import XCTest
@testable import Agent
import Sessions
import HostStore
import KeyFormats
import System

final class StandingAgentVaultHandleSignerTests: XCTestCase {
    private var folder: TempFolder!
    private var database: HostDatabase!
    private var handle: PrivateKey!

    override func setUpWithError() throws {
        folder = try TempFolder()
        database = try HostDatabase.open(path: folder.file("hostbook.db"))
        handle = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "held")
        _ = try KeyStore(database: database).insert(NewKey(uuid: UUIDString.random(), name: "held", publicKey: handle.publicKey,
                                                           comment: "held", format: "openssh", location: .securityKey))
    }

    override func tearDown() {
        database = nil
        folder = nil
    }

    /// What the test signer was handed, and whether it refuses.
    private struct Calls {
        var signed: [String] = []
        var refuses = false
    }

    /// Signs with the handle it is given, recording the key's name and the handle's
    /// fingerprint; refuses (as an authenticator would) when told to.
    private struct RecordingSigner: VaultHandleSigner {
        let calls: Lock<Calls>
        func sign(_ data: [UInt8], with handle: PrivateKey, for key: StoredKey, rsaHash: RSASignatureHash) throws -> [UInt8] {
            let refuses = calls.withLock { c in
                c.signed.append("\(key.name) \(handle.publicKey.sha256Fingerprint)")
                return c.refuses
            }
            if refuses { throw AgentKeyUnavailable(message: "the security key of 'held' was not touched", hint: nil) }
            return try handle.sign(data, rsaHash: rsaHash)
        }
    }

    func testTheLocationsHandleSignerSignsWithTheHandleReadOnceAndItsRefusalIsLogged() throws {
        let calls = Lock(Calls())
        let reads = Lock(0)
        let handle = self.handle!
        let log = try AgentLogWriter(database: try HostDatabase.open(path: folder.file("hostbook.db")))
        defer { log.stop() }
        let agent = StandingAgent(database: database, log: log,
                                  readPrivateKey: { _ in
                                      reads.withLock { $0 += 1 }
                                      return handle
                                  },
                                  signers: KeySigners(handleSigners: [.securityKey: RecordingSigner(calls: calls)]))

        var c = AgentConversation(peer: Self.peer, policy: agent.policy)
        _ = c.reply(to: [11])
        let data: [UInt8] = [1, 2, 3]
        let reply = c.reply(to: AgentWire.signRequest(keyBlob: handle.publicKey.blob, data: data))
        XCTAssertEqual(reply.first, 14, "the handle signer's signature is the agent's answer")
        var r = SSHReader(Array(reply.dropFirst()))
        XCTAssertTrue(handle.publicKey.verifies(signatureBlob: try r.readString(), over: data))

        calls.withLock { $0.refuses = true }
        XCTAssertEqual(c.reply(to: AgentWire.signRequest(keyBlob: handle.publicKey.blob, data: data)), [5], "its refusal refuses")

        let expected = "held \(handle.publicKey.sha256Fingerprint)"
        XCTAssertEqual(calls.withLock { $0.signed }, [expected, expected], "both signatures went to the location's handle signer")
        XCTAssertEqual(reads.withLock { $0 }, 1, "the handle is read from the vault once and kept")

        log.flush()
        let entries = try database.agentLog()
        XCTAssertEqual(entries.count, 2)
        XCTAssertEqual(entries.filter(\.signed).count, 1, "one signed, one refused")
        XCTAssertEqual(entries.first { !$0.signed }?.reason, "the security key of 'held' was not touched")
    }

    func testWithoutAHandleSignerTheKeySignsAsAVaultKey() throws {
        let handle = self.handle!
        let log = try AgentLogWriter(database: try HostDatabase.open(path: folder.file("hostbook.db")))
        defer { log.stop() }
        let calls = Lock(Calls())
        // A handle signer registered for another location is not asked.
        let agent = StandingAgent(database: database, log: log, readPrivateKey: { _ in handle },
                                  signers: KeySigners(handleSigners: [.token: RecordingSigner(calls: calls)]))
        var c = AgentConversation(peer: Self.peer, policy: agent.policy)
        _ = c.reply(to: [11])
        XCTAssertEqual(c.reply(to: AgentWire.signRequest(keyBlob: handle.publicKey.blob, data: [4, 5])).first, 14)
        XCTAssertEqual(calls.withLock { $0.signed }, [])
    }

    static let peer = AgentPeer(pid: 1, uid: 0, gid: 0)
}
