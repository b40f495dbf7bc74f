// Progress lines on a pseudo-terminal: the known_hosts and Tailscale imports and a
// many-round bcrypt key show a count and a percentage (or elapsed time) on stderr, redrawn
// in place at most 10 times a second and cleared at the end; nothing on a pipe, with
// --json or with --no-input.
import Foundation
import XCTest

final class ProgressTerminalTests: XCTestCase {
    var hb: HostbookFixture!

    override func setUpWithError() throws { hb = try HostbookFixture() }

    /// A known_hosts file of `n` plain entries.
    func knownHosts(_ n: Int) throws -> String {
        let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK9ks7jkua5YWIwByRnnnc6UPJQWI75O0e/UJdPYU1JI"
        var text = ""
        text.reserveCapacity(n * 100)
        for i in 0..<n { text += "host-\(i).example.com,10.\(i >> 16 & 255).\(i >> 8 & 255).\(i & 255) \(key)\n" }
        let path = hb.dir.file("known_hosts")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The redraws of a progress line: each starts with a carriage return.
    func draws(_ screen: String, _ label: String) -> [String] {
        screen.components(separatedBy: "\r").filter { $0.hasPrefix(label) }
    }

    func testKnownHostsImportShowsCountAndPercentOnATerminalOnly() throws {
        let file = try knownHosts(12_000)
        let r = try WindowedTerminal.run(["known-hosts", "import", file], columns: 100, onTerminal: [.stderr], environment: hb.environment, account: hb.account)
        XCTAssertEqual(r.status, 0, r.screen)
        XCTAssertEqual(r.stdout, "Imported 24000 entries, 0 duplicates, skipped 0 bad lines.\n")
        let lines = draws(r.screen, "Importing \(file): ")
        XCTAssertFalse(lines.isEmpty, r.screen.debugDescription)
        for l in lines {
            XCTAssertNotNil(l.range(of: #"^Importing .*: [0-9,]+ lines \([0-9]{1,3}%\)\x{1B}\[K$"#, options: .regularExpression), l.debugDescription)
        }
        // Redrawn now and then, not for every line (counted, not timed: at most 10 times a
        // second, which at a line a millisecond, the slowest an import may be, is one redraw
        // in 100 lines), each redraw showing more lines than the one before; and the line is
        // cleared at the end.
        XCTAssertLessThanOrEqual(lines.count, 12_000 / 100 + 1, "\(lines.count) redraws for 12,000 lines")
        let counts = lines.compactMap { l in l.firstMatch(of: /: ([0-9,]+) lines/).map { Int($0.1.replacingOccurrences(of: ",", with: "")) ?? -1 } }
        XCTAssertEqual(counts.count, lines.count)
        XCTAssertEqual(counts, counts.sorted(), "the count only grows")
        XCTAssertEqual(Set(counts).count, counts.count, "no redraw repeats the one before")
        XCTAssertTrue(r.screen.hasSuffix("\r\u{1B}[K"), r.screen.suffix(80).debugDescription)

        // Not on a pipe, not with --json, not with --no-input.
        let piped = try hb.run(["known-hosts", "import", file])
        XCTAssertEqual(piped.status, 0)
        XCTAssertEqual(piped.stderr, "")
        for extra in ["--json", "--no-input"] {
            let quiet = try WindowedTerminal.run(["known-hosts", "import", file, extra], columns: 100, onTerminal: [.stderr], environment: hb.environment, account: hb.account)
            XCTAssertEqual(quiet.status, 0, quiet.screen)
            XCTAssertEqual(quiet.screen, "", extra)
        }
    }

    func testTailscaleImportShowsDevices() throws {
        var devices: [String] = []
        for i in 0..<3000 {
            devices.append(#"{"nodeId":"n\#(i)","name":"dev-\#(i).tail4f21c8.ts.net.","addresses":["100.64.\#(i >> 8).\#(i & 255)"],"os":"linux"}"#)
        }
        let path = hb.dir.file("devices.json")
        try ("{\"devices\":[" + devices.joined(separator: ",") + "]}").write(toFile: path, atomically: true, encoding: .utf8)
        let r = try WindowedTerminal.run(["import-tailscale", path, "--all"], columns: 100, onTerminal: [.stderr], environment: hb.environment, account: hb.account)
        XCTAssertEqual(r.status, 0, r.screen)
        XCTAssertTrue(r.stdout.hasSuffix("3000 added, 0 updated, 0 unchanged, 0 skipped; 0 host-key entries trusted.\n"), String(r.stdout.suffix(200)))
        let lines = draws(r.screen, "Importing from Tailscale: ")
        XCTAssertFalse(lines.isEmpty, r.screen.debugDescription)
        XCTAssertTrue(lines.allSatisfy { $0.range(of: #"^Importing from Tailscale: [0-9,]+ of 3,000 devices \([0-9]{1,3}%\)\x{1B}\[K$"#, options: .regularExpression) != nil },
                      lines.debugDescription)
        XCTAssertTrue(r.screen.hasSuffix("\r\u{1B}[K"))
        let again = try WindowedTerminal.run(["import-tailscale", path, "--all", "--json"], columns: 100, onTerminal: [.stderr], environment: hb.environment, account: hb.account)
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(again.screen, "")
    }

    func testManyRoundBcryptShowsElapsedTime() throws {
        let key = hb.dir.file("slow")
        let gen = try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-a", "64", "-N", "correct horse", "-C", "slow", "-f", key])
        XCTAssertEqual(gen.status, 0, gen.stderr)
        try "correct horse\n".write(toFile: hb.dir.file("pass"), atomically: true, encoding: .utf8)
        let r = try WindowedTerminal.run(["keys", "import", key, "--passphrase-file", hb.dir.file("pass")], columns: 100,
                                         onTerminal: [.stderr], environment: hb.environment, account: hb.account)
        XCTAssertEqual(r.status, 0, r.screen + r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("Imported key 'slow': 256 SHA256:"), r.stdout)
        let lines = draws(r.screen, "Deriving the key (64 bcrypt rounds)… ")
        XCTAssertFalse(lines.isEmpty, r.screen.debugDescription)
        XCTAssertTrue(lines.allSatisfy { $0.range(of: #"^Deriving the key \(64 bcrypt rounds\)… [0-9]+\.[0-9] s\x{1B}\[K$"#, options: .regularExpression) != nil },
                      lines.debugDescription)
        XCTAssertTrue(r.screen.hasSuffix("\r\u{1B}[K"), r.screen.debugDescription)
        // On a pipe: nothing of it.
        try hb.ok("keys", "remove", "slow", "--yes")
        let piped = try hb.run(["keys", "import", key, "--passphrase-file", hb.dir.file("pass")])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stderr, "")
    }
}
