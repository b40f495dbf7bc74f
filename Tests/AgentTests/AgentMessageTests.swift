// The codec: requests parse, replies encode, and a bound connection signs only for its
// own session and host key.
import XCTest
@testable import Agent
import KeyFormats
import TestSupport
import SecureMemory

final class AgentMessageTests: XCTestCase {
    static let peer = AgentPeer(pid: 1, uid: 0, gid: 0)

    func testRequestsRoundTrip() throws {
        var w = SSHWriter()
        w.writeByte(13)
        w.writeString([1, 2, 3])
        w.writeString([4, 5])
        w.writeUInt32(4)
        guard case .sign(let blob, let data, let flags) = try AgentRequest.parse(w.bytes) else { return XCTFail() }
        XCTAssertEqual(blob, [1, 2, 3]); XCTAssertEqual(data, [4, 5]); XCTAssertEqual(flags, 4)
        guard case .requestIdentities = try AgentRequest.parse([11]) else { return XCTFail() }
        guard case .modifies(19) = try AgentRequest.parse([19]) else { return XCTFail() }
        guard case .modifies(9) = try AgentRequest.parse([9]) else { return XCTFail() }
        guard case .unknown(200) = try AgentRequest.parse([200]) else { return XCTFail() }
        XCTAssertThrowsError(try AgentRequest.parse([]))
        XCTAssertThrowsError(try AgentRequest.parse([11, 0]))
        XCTAssertThrowsError(try AgentRequest.parse([13, 0, 0, 0, 9, 1]))
    }

    func testIdentitiesAnswerEncoding() {
        let body = AgentReply.identities([([0xaa], "c")])
        XCTAssertEqual(body, [12, 0, 0, 0, 1, 0, 0, 0, 1, 0xaa, 0, 0, 0, 1, UInt8(ascii: "c")])
        XCTAssertEqual(AgentReply.signature([7]), [14, 0, 0, 0, 1, 7])
    }

    /// A session-bind with the host key's real signature, then sign requests for that
    /// session (accepted) and for another (refused).
    func testSessionBindRestrictsSigning() throws {
        let hostKey = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "host")
        let userKey = AgentIdentity(key: try PrivateKeyGenerator.generate(.ecdsa, bits: 256, comment: "user"), comment: "user")
        var conversation = AgentConversation(peer: Self.peer, policy: AgentPolicy(identities: { _ in [userKey] }))
        let sessionID = [UInt8](repeating: 0x42, count: 32)
        XCTAssertEqual(conversation.reply(to: Self.bind(hostKey: hostKey, sessionID: sessionID, signedBy: hostKey)), [6])
        XCTAssertEqual(conversation.state.bindings.count, 1)

        let good = Self.userAuth(sessionID: sessionID, key: userKey.publicKey, hostKey: hostKey.publicKey)
        let reply = conversation.reply(to: Self.signRequest(userKey.publicKey, good))
        XCTAssertEqual(reply.first, 14)
        var r = SSHReader(Array(reply.dropFirst()))
        let blob = try r.readString()
        XCTAssertTrue(userKey.publicKey.verifies(signatureBlob: blob, over: good))

        let otherSession = Self.userAuth(sessionID: [UInt8](repeating: 1, count: 32), key: userKey.publicKey, hostKey: hostKey.publicKey)
        XCTAssertEqual(conversation.reply(to: Self.signRequest(userKey.publicKey, otherSession)), [5])
        let otherHost = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "other").publicKey
        XCTAssertEqual(conversation.reply(to: Self.signRequest(userKey.publicKey, Self.userAuth(sessionID: sessionID, key: userKey.publicKey, hostKey: otherHost))), [5])
        XCTAssertEqual(conversation.reply(to: Self.signRequest(userKey.publicKey, [1, 2, 3])), [5], "arbitrary data on a bound connection")
        // No re-binding of a connection bound for authentication.
        XCTAssertEqual(conversation.reply(to: Self.bind(hostKey: hostKey, sessionID: sessionID, signedBy: hostKey)), [5])
    }

    func testForgedOrForwardedBindIsRefused() throws {
        let hostKey = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "host")
        let forger = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "forger")
        let userKey = AgentIdentity(key: try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "u"), comment: "u")
        var conversation = AgentConversation(peer: Self.peer, policy: AgentPolicy(identities: { _ in [userKey] }))
        let sessionID = [UInt8](repeating: 7, count: 64)
        XCTAssertEqual(conversation.reply(to: Self.bind(hostKey: hostKey, sessionID: sessionID, signedBy: forger)), [5])
        XCTAssertEqual(conversation.state.bindings.count, 0)

        // A fresh connection: the forged bind has refused that one everything
        // (SessionBindCertificateTests).
        conversation = AgentConversation(peer: Self.peer, policy: AgentPolicy(identities: { _ in [userKey] }))
        XCTAssertEqual(conversation.reply(to: Self.bind(hostKey: hostKey, sessionID: sessionID, signedBy: hostKey, forwarding: true)), [6])
        let data = Self.userAuth(sessionID: sessionID, key: userKey.publicKey, hostKey: hostKey.publicKey)
        XCTAssertEqual(conversation.reply(to: Self.signRequest(userKey.publicKey, data)), [5], "the default policy refuses forwarded use")
    }

    func testRSAFlagsChooseTheAlgorithm() throws {
        let rsa = AgentIdentity(key: try PrivateKeyGenerator.generate(.rsa, bits: 2048, comment: "r"), comment: "r")
        var conversation = AgentConversation(peer: Self.peer, policy: AgentPolicy(identities: { _ in [rsa] }))
        for (flags, name) in [(UInt32(4), "rsa-sha2-512"), (2, "rsa-sha2-256"), (0, "ssh-rsa")] {
            let reply = conversation.reply(to: Self.signRequest(rsa.publicKey, [9, 9, 9], flags: flags))
            var r = SSHReader(Array(reply.dropFirst()))
            let blob = try r.readString()
            var inner = SSHReader(blob)
            XCTAssertEqual(try inner.readText(), name)
            XCTAssertTrue(rsa.publicKey.verifies(signatureBlob: blob, over: [9, 9, 9]))
        }
    }

    static func bind(hostKey: PrivateKey, sessionID: [UInt8], signedBy signer: PrivateKey, forwarding: Bool = false) -> [UInt8] {
        AgentWire.sessionBind(hostKeyBlob: hostKey.publicKey.blob, sessionID: sessionID, signature: try! signer.sign(sessionID), forwarding: forwarding)
    }

    static func userAuth(sessionID: [UInt8], key: PublicKey, hostKey: PublicKey) -> [UInt8] {
        AgentWire.hostboundUserAuth(sessionID: sessionID, keyType: key.type, keyBlob: key.blob, hostKeyBlob: hostKey.blob)
    }

    static func signRequest(_ key: PublicKey, _ data: [UInt8], flags: UInt32 = 0) -> [UInt8] {
        AgentWire.signRequest(keyBlob: key.blob, data: data, flags: flags)
    }
}
