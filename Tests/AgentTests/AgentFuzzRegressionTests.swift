// Replays fuzz/corpus/agent-message and fuzz/crashers/agent-message (crashers the fuzzer
// found and hand-written tricky inputs) through the same calls as
// fuzz/targets/agent-message.swift. Each must only not crash.
import Foundation
import XCTest
@testable import Agent
import KeyFormats

final class AgentFuzzRegressionTests: XCTestCase {
    func testEveryKnownInputIsHandled() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let identity = AgentIdentity(key: try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: "fuzz"), comment: "fuzz")
        var count = 0
        for folder in ["fuzz/corpus/agent-message", "fuzz/crashers/agent-message"] {
            let dir = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() {
                let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
                _ = try? AgentRequest.parse(bytes)
                _ = UserAuthRequest.parse(bytes)
                _ = SignedData(bytes)
                if case .sign(_, let data, _)? = try? AgentRequest.parse(bytes) { _ = SignedData(data) }
                // key-status@hostbook.io answered, and its reply parser (the client side) on the bytes.
                var policy = AgentPolicy(identities: { _ in [identity] })
                policy.keyStatus = { _, _ in .unavailable(message: "locked", hint: "Unlock it.") }
                _ = AgentKeyStatus.parse(reply: bytes)
                var conversation = AgentConversation(peer: AgentPeer(pid: 1, uid: 0, gid: 0), policy: policy)
                _ = conversation.reply(to: bytes)
                _ = conversation.reply(to: bytes)
                count += 1
            }
        }
        XCTAssertGreaterThanOrEqual(count, 8)
    }
}
