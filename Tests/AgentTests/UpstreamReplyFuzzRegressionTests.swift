// Replays fuzz/corpus/agent-upstream-reply and fuzz/crashers/agent-upstream-reply through
// FuzzEntry.upstreamReply, the body fuzz/targets/agent-upstream-reply.swift runs. Each
// must only not crash (the body itself traps on a listing over its limit, or a reply that
// passes as a signature no one made).
import Foundation
import XCTest
@testable import Agent

final class UpstreamReplyFuzzRegressionTests: XCTestCase {
    func testEveryKnownInputIsHandled() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var count = 0
        for folder in ["fuzz/corpus/agent-upstream-reply", "fuzz/crashers/agent-upstream-reply"] {
            let dir = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() {
                FuzzEntry.upstreamReply([UInt8](try Data(contentsOf: dir.appendingPathComponent(name))))
                count += 1
            }
        }
        XCTAssertGreaterThanOrEqual(count, 8)
    }
}
