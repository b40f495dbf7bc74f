// Replays every input in fuzz/crashers/<target>/ (crashers the fuzzers found, plus
// hand-written tricky inputs named handwritten-*) through the fuzz target of that name:
// FuzzEntry (Sources/KeyFormats/Fuzzing) holds the bodies both call. Each must only not
// crash. Other modules' targets are replayed by their own test targets (`replayedElsewhere`).
import XCTest
import SecureMemory
@testable import KeyFormats
import TestSupport

final class FuzzRegressionTests: XCTestCase {
    /// The bodies of the fuzz targets, shared with them (Sources/KeyFormats/Fuzzing/FuzzEntry.swift),
    /// and the two whose calls are still written out here (known-hosts-import, host-name).
    let targets: [String: ([UInt8]) -> Void] = Dictionary(uniqueKeysWithValues: FuzzEntry.targets.map { ($0.name, $0.run) })
        .merging(FuzzRegressionTests.writtenOut.mapValues { run in { run($0) } }) { shared, _ in shared }

    static let writtenOut: [String: @Sendable ([UInt8]) -> Void] = [
        // fuzz/targets/known-hosts-import.swift: lines, entries, stored names, the decision.
        "known-hosts-import": { bytes in
            var records: [HostKeyRecord] = []
            for line in bytes.split(separator: 0x0a, omittingEmptySubsequences: false) {
                guard case .entry(let l)? = try? KnownHostsLine.parse(bytes: line) else { continue }
                if let entry = try? KnownHostsEntry(line: l) { records.append(HostKeyRecord(entry)) }
                for n in (try? KnownHostsHostField.names(of: l.hosts)) ?? [] where n.plain {
                    XCTAssertEqual(HostPatternList.match(name: HostLookupName(host: n.pattern, port: n.port).text, patterns: l.hosts), .matched)
                }
            }
            _ = HostKeyPolicy.decide(.plain(PublicKey(.ed25519(publicKey: [UInt8](repeating: 7, count: 32)))), records: records, hostName: "h", now: 0)
        },
        // fuzz/targets/host-name.swift: the known-hosts name validator.
        "host-name": { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            if HostNameRule.problem(text) == nil { XCTAssertFalse(HostPatternList.hasWildcards(text) || text.contains(",")) }
            _ = try? HostNameRule.lookup(text)
            _ = try? HostNameRule.lookup(text, port: 2222)
        },
    ]

    /// Targets of other modules, replayed by their own test targets.
    static let replayedElsewhere: Set<String> = [
        "tailscale-document", "known-hosts-file", // Tests/HostStoreTests/FuzzRegressionTests.swift
        "json-stream", "punycode", "bundle-text", // Tests/ImportFormatsTests/FuzzRegressionTests.swift
        "agent-message", // Tests/AgentTests/AgentFuzzRegressionTests.swift
        "security-key-response", // Tests/SecurityKeysTests/SecurityKeyResponseTests.swift
        "agent-upstream-reply", // Tests/AgentTests/UpstreamReplyFuzzRegressionTests.swift
        "ssh-config",    // Tests/SSHConfigTests/SSHConfigFuzzRegressionTests.swift
        "token-response", // Tests/TokensTests/TokenResponseTests.swift
    ]

    func testEveryCrasherIsReplayedWithoutCrashing() throws {
        let dir = PackageRoot.url.appendingPathComponent("fuzz/crashers")
        let folders = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        var replayed = 0
        for target in folders where !Self.replayedElsewhere.contains(target) {
            let folder = dir.appendingPathComponent(target)
            guard let run = targets[target] else {
                XCTFail("fuzz/crashers/\(target) has no replay entry in FuzzRegressionTests.targets")
                continue
            }
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where !file.hasPrefix(".") {
                run(try Fixtures.bytes(folder.appendingPathComponent(file)))
                replayed += 1
            }
        }
        XCTAssertGreaterThanOrEqual(replayed, 7, "the hand-written inputs are missing")
    }

    func testBcryptRoundsGuardReadsTheKDFOptions() throws {
        let corpus = PackageRoot.url.appendingPathComponent("fuzz/corpus/openssh-key")
        XCTAssertEqual(try OpenSSHPrivateKey.bcryptRounds(try Fixtures.bytes(corpus.appendingPathComponent("ed25519-aes256ctr"))), 1)
        XCTAssertNil(try OpenSSHPrivateKey.bcryptRounds(try Fixtures.bytes(corpus.appendingPathComponent("ed25519"))))
        XCTAssertTrue(FuzzEntry.fewBcryptRounds(try Fixtures.bytes(corpus.appendingPathComponent("ed25519-aes256ctr"))))
    }

    /// The first crasher: an RFC 4716 comment of invalid UTF-8 was re-encoded with a
    /// character index computed from its byte length (String index out of bounds).
    func testRFC4716CommentWrapIsByCharacterNotByte() throws {
        let key = try PublicKeyLine.parse(Fixtures.text(Fixtures.testkeys("pem/ed25519.pub"))).key
        for comment in [String(repeating: "\u{FFFD}", count: 60), String(repeating: "é", count: 100), String(repeating: "a b ", count: 40)] {
            let text = RFC4716PublicKey.encode(key, comment: comment)
            XCTAssertTrue(text.split(separator: "\n").allSatisfy { $0.utf8.count <= 72 })
            XCTAssertEqual(try RFC4716PublicKey.parse(Array(text.utf8)).comment, comment)
        }
    }
}
