// In-process (InProcessCommand runs Hostbook.main; was run on the binary).
// A binary or huge file given as input gives a short report (issue 10): at most 20
// warnings, then one line that counts the rest (CLI/WarningSink.swift).
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class ShortReportTests: XCTestCase {
    func testARandomFileGivenAsKnownHostsGivesTwentyWarningsAndACount() throws {
        let hb = try InProcessCommand()
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<4_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let file = hb.dir.file("random.bin")
        try bytes.write(to: URL(fileURLWithPath: file))
        let r = try hb.run("known-hosts", "import", file)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.count, 21, r.stderr.prefix(3000).description)
        for line in lines.prefix(20) {
            XCTAssertTrue(line.hasPrefix("hostbook: warning: \(file):"), String(line))
        }
        // The summary on stdout says how many lines were skipped; the last warning counts the rest.
        let skipped = try XCTUnwrap(r.stdout.split(separator: " ").dropLast(2).last.flatMap { Int($0) }, r.stdout)
        XCTAssertGreaterThan(skipped, 10_000)
        XCTAssertEqual(String(lines.last!), "hostbook: warning: ... and \(grouped(skipped - 20)) more lines skipped")
        // --json keeps every line: it is data, not a report for a person.
        let j = try hb.run("known-hosts", "import", file, "--json")
        let object = try JSONSerialization.jsonObject(with: j.stdoutBytes) as? [String: Any]
        XCTAssertEqual((object?["skipped"] as? [Any])?.count, skipped)
    }

    func testTwentyOneWarningsArePrintedAsTwentyAndOne() throws {
        let hb = try InProcessCommand()
        let file = hb.dir.file("known_hosts")
        try (1...21).map { "host\($0) ssh-bogus AAAA" }.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let r = try hb.run("known-hosts", "import", file)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 21)
        XCTAssertEqual(String(lines.last!), "hostbook: warning: ... and 1 more line skipped")
        try (1...20).map { "host\($0) ssh-bogus AAAA" }.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let twenty = try hb.run("known-hosts", "import", file).stderr.split(separator: "\n")
        XCTAssertEqual(twenty.count, 20)
        XCTAssertFalse(twenty.last!.contains("more"))
    }

    func testATailscaleDocumentWithManyBadKeysGivesAShortReport() throws {
        let hb = try InProcessCommand()
        let keys = (1...45).map { "\"not-a-key-\($0)\"" }.joined(separator: ",")
        let document = """
            {"BackendState": "Running", "Self": {"ID": "nSelf", "HostName": "me", "DNSName": "me.tail1.ts.net.", "TailscaleIPs": ["100.64.0.1"]},
             "Peer": {"nodekey:1": {"ID": "nPeer", "HostName": "box", "DNSName": "box.tail1.ts.net.", "TailscaleIPs": ["100.64.0.2"],
                                    "Online": true, "sshHostKeys": [\(keys)]}}}
            """
        let file = hb.dir.file("status.json")
        try document.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try hb.run("import-tailscale", file, "--all")
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 21, r.stderr)
        XCTAssertTrue(lines[0].hasPrefix("hostbook: warning: box: not-a-key-1 not trusted: "), String(lines[0]))
        XCTAssertEqual(String(lines.last!), "hostbook: warning: ... and 25 more warnings")
    }

    private func grouped(_ n: Int) -> String {
        let s = String(n)
        var out = ""
        for (i, c) in s.enumerated() {
            if i > 0 && (s.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return out
    }
}
