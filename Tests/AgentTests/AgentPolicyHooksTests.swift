// The policy's hooks: lock and unlock go to the caller (refused without them), and every
// signature request for a usable key reports its outcome.
import XCTest
@testable import Agent
import System
import KeyFormats
import TestSupport
import SecureMemory

final class AgentPolicyHooksTests: XCTestCase {
    private final class Recorder: @unchecked Sendable {
        let mutex = Lock()
        var outcomes: [Bool] = []
        var locked = false
    }

    private static func lockMessage(_ type: UInt8, _ passphrase: String) -> [UInt8] { AgentWire.passphraseMessage(type, passphrase) }

    private static func sign(_ key: PublicKey, _ data: [UInt8]) -> [UInt8] { AgentWire.signRequest(keyBlob: key.blob, data: data) }

    func testLockUnlockAndOutcomesReachThePolicy() throws {
        let identity = AgentIdentity(key: try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "k"), comment: "k")
        let r = Recorder()
        let policy = AgentPolicy(
            identities: { _ in r.mutex.locked { r.locked } ? [] : [identity] },
            maySign: { _, _, _ in true },
            outcome: { _, _, o in r.mutex.locked { r.outcomes.append(o.signed) } },
            lock: { _ in r.mutex.locked { r.locked = true }; return true },
            unlock: { p in p.constantTimeEquals(SecretBytes(copying: Array("pw".utf8))) && r.mutex.locked { r.locked = false; return true } })
        var conversation = AgentConversation(peer: AgentPeer(pid: 1, uid: 0, gid: 0), policy: policy)
        XCTAssertEqual(conversation.reply(to: Self.sign(identity.publicKey, [1, 2, 3])).first, 14)
        XCTAssertEqual(conversation.reply(to: Self.lockMessage(22, "pw")), [6])
        XCTAssertEqual(conversation.reply(to: [11]), [12, 0, 0, 0, 0], "a locked agent lists nothing")
        XCTAssertEqual(conversation.reply(to: Self.sign(identity.publicKey, [4])), [5], "a locked agent signs nothing")
        XCTAssertEqual(conversation.reply(to: Self.lockMessage(23, "other")), [5])
        XCTAssertEqual(conversation.reply(to: Self.lockMessage(23, "pw")), [6])
        XCTAssertEqual(r.outcomes, [true, false], "the refusal of a key not offered is told too")

        // Without lock hooks (a per-session agent) both are refused.
        var plain = AgentConversation(peer: AgentPeer(pid: 1, uid: 0, gid: 0), policy: AgentPolicy(identities: { _ in [identity] }, maySign: { _, _, _ in false }))
        XCTAssertEqual(plain.reply(to: Self.lockMessage(22, "pw")), [5])
        XCTAssertEqual(plain.reply(to: Self.sign(identity.publicKey, [1])), [5])
    }

    /// key-status@hostbook.io: answered by the policy for a key the connection is offered,
    /// in the reply the client reads back; refused for any other key, without the hook, and
    /// with trailing bytes. A session agent (no hook) answers FAILURE, as any other agent.
    func testKeyStatusIsThePolicysAnswerForAnOfferedKeyOnly() throws {
        let identity = AgentIdentity(key: try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "k"), comment: "k")
        let other = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "o").publicKey
        var policy = AgentPolicy(identities: { _ in [identity] })
        policy.keyStatus = { _, asked in
            asked.publicKey.blob == identity.publicKey.blob ? .unavailable(message: "the vault is locked", hint: "Unlock it.") : .ready
        }
        var conversation = AgentConversation(peer: AgentPeer(pid: 1, uid: 0, gid: 0), policy: policy)
        let reply = conversation.reply(to: AgentKeyStatus.request(keyBlob: identity.publicKey.blob))
        XCTAssertEqual(AgentKeyStatus.parse(reply: reply), .unavailable(message: "the vault is locked", hint: "Unlock it."))
        XCTAssertEqual(conversation.reply(to: AgentKeyStatus.request(keyBlob: other.blob)), [5], "not offered: not told")
        XCTAssertEqual(conversation.reply(to: AgentKeyStatus.request(keyBlob: identity.publicKey.blob) + [0]), [5], "trailing bytes")
        XCTAssertNil(AgentKeyStatus.parse(reply: [5]))
        XCTAssertEqual(AgentKeyStatus.parse(reply: AgentKeyStatus.ready.reply), .ready)
        var plain = AgentConversation(peer: AgentPeer(pid: 1, uid: 0, gid: 0), policy: AgentPolicy(identities: { _ in [identity] }))
        XCTAssertEqual(plain.reply(to: AgentKeyStatus.request(keyBlob: identity.publicKey.blob)), [5])
    }

    /// drop-keys@hostbook.io (`vault lock`): answered SUCCESS once the policy's hook has run;
    /// refused with trailing bytes and without the hook (a session agent, any other agent).
    func testDropKeysRunsThePolicysHook() throws {
        let identity = AgentIdentity(key: try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "k"), comment: "k")
        let r = Recorder()
        var policy = AgentPolicy(identities: { _ in [identity] })
        policy.dropKeys = { r.mutex.locked { r.outcomes.append(true) } }
        var conversation = AgentConversation(peer: AgentPeer(pid: 1, uid: 0, gid: 0), policy: policy)
        XCTAssertEqual(conversation.reply(to: AgentDropKeys.request), [6])
        XCTAssertEqual(r.mutex.locked { r.outcomes }, [true])
        XCTAssertEqual(conversation.reply(to: AgentDropKeys.request + [0]), [5], "trailing bytes")
        XCTAssertEqual(r.mutex.locked { r.outcomes }, [true])
        var plain = AgentConversation(peer: AgentPeer(pid: 1, uid: 0, gid: 0), policy: AgentPolicy(identities: { _ in [identity] }))
        XCTAssertEqual(plain.reply(to: AgentDropKeys.request), [5])
    }
}

