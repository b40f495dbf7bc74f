// Replays fuzz/crashers/ssh-config/ and the seeds in fuzz/corpus/ssh-config/ through the
// same calls as fuzz/targets/ssh-config.swift; each must only not crash. The hand-written
// ones also pin what they are about.
import Foundation
@testable import SSHConfig
import XCTest
import TestSupport

final class SSHConfigFuzzRegressionTests: XCTestCase {
    static let root = PackageRoot.url

    /// The fuzz target's calls (fuzz/targets/ssh-config.swift).
    static func access(_ bytes: [UInt8]) -> SSHConfigFileAccess {
        SSHConfigFileAccess(
            read: { path in
                guard path == "/c" else { throw SSHConfigLexerMessage("no such file") }
                return bytes
            },
            glob: { pattern in pattern == "~/.ssh/c" || pattern == "/c" ? ["/c"] : [] })
    }

    static func exercise(_ bytes: [UInt8]) {
        guard let config = try? SSHConfigLoader.load("/c", access: access(bytes)) else { return }
        let resolver = SSHConfigResolver(configuration: config, localUser: "fuzz")
        for alias in config.aliases.prefix(64).map(\.name) + ["fuzz.example"] {
            let r = resolver.resolve(alias)
            if let jump = r.proxyJump { _ = SSHConfigValues.jumpHops(jump) }
            for path in r.identityFiles { _ = try? SSHConfigTokens.expand(path, ["h": alias, "d": "/home/fuzz", "%": "%"]) }
        }
    }

    func inputs(_ folder: String) throws -> [(String, [UInt8])] {
        let dir = Self.root.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted().filter { !$0.hasPrefix(".") }.map {
            ($0, [UInt8](try Data(contentsOf: dir.appendingPathComponent($0))))
        }
    }

    func testEveryCrasherAndSeedIsReplayedWithoutCrashing() throws {
        let all = try inputs("fuzz/crashers/ssh-config") + inputs("fuzz/corpus/ssh-config")
        XCTAssertGreaterThanOrEqual(all.count, 7)
        for (_, bytes) in all { Self.exercise(bytes) }
    }

    func testSelfIncludeStopsAtTheNestingLimit() throws {
        let bytes = try XCTUnwrap(try inputs("fuzz/crashers/ssh-config").first { $0.0 == "handwritten-self-include" }?.1)
        XCTAssertThrowsError(try SSHConfigLoader.load("/c", access: Self.access(bytes))) {
            XCTAssertEqual(($0 as? SSHConfigError)?.kind, .includeDepth)
        }
    }

    /// `*a*a*...b` against a long name: match.c's recursion is exponential there; ours is not.
    /// The work is counted, not timed: at most (name + 1) × (pattern + 1) steps.
    func testStarPatternsDoNotBacktrackExponentially() throws {
        let pattern = Array((String(repeating: "*a", count: 200) + "b").utf8)[...]
        for (name, expected) in [(String(repeating: "a", count: 5000), false), (String(repeating: "a", count: 5000) + "b", true)] {
            let bytes = Array(name.utf8)[...]
            var steps = 0
            XCTAssertEqual(HostPatternMatch.matches(bytes, pattern, steps: &steps), expected)
            XCTAssertLessThanOrEqual(steps, (bytes.count + 1) * (pattern.count + 1))
            XCTAssertGreaterThan(steps, 0)
        }
    }
}
