// Replays fuzz/crashers/known-hosts-line and fuzz/corpus/known-hosts-line through the same
// calls as fuzz/targets/known-hosts-line.swift; passing means only "did not crash".
import Foundation
import XCTest
@testable import KeyFormats
import TestSupport

final class KnownHostsFuzzRegressionTests: XCTestCase {
    /// The body of fuzz/targets/known-hosts-line.swift.
    static func exercise(_ bytes: [UInt8]) { FuzzEntry.knownHostsLine(bytes) }

    func testReplayCrashersAndCorpus() throws {
        let root = PackageRoot.url
        var count = 0
        for folder in ["fuzz/crashers/known-hosts-line", "fuzz/corpus/known-hosts-line"] {
            let dir = root.appendingPathComponent(folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] {
                Self.exercise(Array(try Data(contentsOf: dir.appendingPathComponent(name))))
                count += 1
            }
        }
        XCTAssertGreaterThanOrEqual(count, 5)
    }

    /// Inputs that stress the matcher's backtracking and the grammar's edges.
    func testHandwrittenEdges() {
        let cases: [String] = [
            "", "\n\n\n", "@", "@revoked", "@cert-authority \t", "|", "|1|", "|1|||", "[", "[]:", "[a]:", "[a]:99999",
            String(repeating: "*", count: 3000) + "b a", String(repeating: "*a", count: 2000) + " " + String(repeating: "a", count: 3000),
            "h ssh-ed25519 " + String(repeating: "A", count: 100_000), "\u{0}\u{1}\u{7f} ssh-rsa \u{ff}",
        ]
        for c in cases { Self.exercise(Array(c.utf8)) }
    }
}
