// The known-hosts commands read a saved host's name one way (`scan`, `check`, `list`,
// `history`, `approve`): its hostname and port, said on stderr; literal host names keep working, and
// `list` takes [HOST]:PORT and --port like `check`, hashed entries on another port included.
// Hashed and pattern entries show no port in `history`, as in `list`.
import Foundation
import TestSupport
@testable import hostbook
import XCTest

final class KnownHostsSavedHostNamesTests: XCTestCase, TestHostKeys {
    func testCheckListAndApproveUseTheSavedHostsHostnameAndPort() throws {
        let fx = try InProcessCommand()
        try fx.ok("add", "gitbox", "--hostname", "127.0.0.1", "--port", "22201")
        let note = "hostbook: 'gitbox' is a saved host: using '127.0.0.1' port 22201\n"

        let approved = try fx.run(["known-hosts", "approve", "gitbox", "--key", keyA, "--yes"])
        XCTAssertEqual(approved.status, 0, approved.stderr)
        XCTAssertEqual(approved.stdout, "Approved: the ED25519 key \(fpA) is now trusted for '127.0.0.1' (port 22201).\n")
        XCTAssertEqual(approved.stderr, note)

        let check = try fx.run(["known-hosts", "check", "gitbox", "--key", keyA])
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertEqual(check.stdout, "trusted: the ED25519 key \(fpA) is trusted for '127.0.0.1' (port 22201)\n")
        XCTAssertEqual(check.stderr, note)
        // The literal name is still a literal name.
        let literal = try fx.run(["known-hosts", "check", "127.0.0.1", "--port", "22201", "--key", keyA])
        XCTAssertEqual(literal.status, 0)
        XCTAssertEqual(literal.stderr, "")
        XCTAssertEqual(try fx.run(["known-hosts", "check", "127.0.0.1", "--key", keyA]).status, 10, "port 22 knows nothing")

        // A replacement through the saved name replaces the entry ssh uses, and writes none for 'gitbox'.
        let replaced = try fx.run(["known-hosts", "approve", "gitbox", "--key", keyB, "--replace", "--fingerprint", fpB])
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertEqual(replaced.stdout, "Replaced: the ED25519 key \(fpB) is now trusted for '127.0.0.1' (port 22201).\n")
        let all = try XCTUnwrap(try fx.json("known-hosts", "list") as? [[String: Any]])
        XCTAssertEqual(all.map { "\($0["host"] as? String ?? "?") \($0["port"] as? Int ?? 0) \($0["fingerprint"] as? String ?? "?")" },
                       ["127.0.0.1 22201 \(fpB)"])

        // list: the saved name, [HOST]:PORT and --port all find the entry; the bare name on port 22 does not.
        for args in [["gitbox"], ["[127.0.0.1]:22201"], ["127.0.0.1", "--port", "22201"]] {
            let r = try fx.run(["known-hosts", "list"] + args + ["--json"])
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: r.stdoutBytes) as? [[String: Any]])
            XCTAssertEqual(rows.map { $0["fingerprint"] as? String }, [fpB], "\(args)")
        }
        let listed = try fx.run(["known-hosts", "list", "gitbox"])
        XCTAssertEqual(listed.stderr, note)
        XCTAssertTrue(listed.stdout.contains("127.0.0.1  22201"), listed.stdout)
        let none = try fx.run(["known-hosts", "list", "[127.0.0.1]:2"])
        XCTAssertEqual(none.status, 4)
        XCTAssertEqual(none.stderr, "hostbook: no known-hosts entries for '127.0.0.1' (port 2)\n")
        XCTAssertEqual(try fx.run(["known-hosts", "list", "--port", "22"]).status, 2, "--port needs HOST")
    }

    func testAHashedEntryOnAnotherPortIsListedByHostAndHistoryShowsNoPortForIt() throws {
        let fx = try InProcessCommand()
        let file = fx.dir.file("known_hosts")
        try Data("[h.test]:2222 \(keyA)\n".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(try Tool.run("/usr/bin/ssh-keygen", ["-H", "-f", file]).status, 0)
        let hashed = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(hashed.hasPrefix("|1|"), hashed)
        try fx.ok("known-hosts", "import", file)

        let byPort = try fx.run(["known-hosts", "list", "h.test", "--port", "2222", "--json"])
        XCTAssertEqual(byPort.status, 0, byPort.stderr)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: byPort.stdoutBytes) as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["fingerprint"] as? String }, [fpA])
        XCTAssertTrue(rows.first?["port"] is NSNull)
        XCTAssertEqual(try fx.run(["known-hosts", "list", "[h.test]:2222"]).status, 0)
        XCTAssertEqual(try fx.run(["known-hosts", "list", "h.test", "--port", "2223"]).status, 4)

        // history: '-' and null for the hashed entry's port, as list shows it.
        let list = try fx.ok("known-hosts", "list")
        let history = try fx.ok("known-hosts", "history")
        let listLine = try XCTUnwrap(list.stdout.split(separator: "\n").last)
        let historyLine = try XCTUnwrap(history.stdout.split(separator: "\n").last)
        XCTAssertTrue(listLine.hasPrefix("|1|") && listLine.contains("  -  "), String(listLine))
        XCTAssertTrue(historyLine.contains("imported") && historyLine.contains("  -  ") && !historyLine.contains(" 0 "), String(historyLine))
        let events = try XCTUnwrap(try fx.json("known-hosts", "history") as? [[String: Any]])
        XCTAssertEqual(events.count, 1)
        XCTAssertTrue(events[0]["port"] is NSNull, "\(events)")
    }

    /// history takes what check and list take (a saved name, [HOST]:PORT, --port) and then
    /// shows that port's events only; scan takes [HOST]:PORT; a bad bracket is refused by all
    /// four in the same words, naming what was given.
    func testHistoryAndScanTakeASavedNameBracketsAndPortLikeCheckAndList() throws {
        let fx = try InProcessCommand()
        try fx.ok("add", "gitbox", "--hostname", "127.0.0.1", "--port", "22203")
        try fx.ok("known-hosts", "approve", "127.0.0.1", "--port", "22203", "--key", keyA, "--yes")
        try fx.ok("known-hosts", "approve", "127.0.0.1", "--key", keyB, "--yes")

        for args in [["gitbox"], ["[127.0.0.1]:22203"], ["127.0.0.1", "--port", "22203"]] {
            let r = try fx.run(["known-hosts", "history"] + args + ["--json"])
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
            let events = try XCTUnwrap(JSONSerialization.jsonObject(with: r.stdoutBytes) as? [[String: Any]])
            XCTAssertEqual(events.map { "\($0["port"] as? Int ?? 0) \($0["fingerprint"] as? String ?? "?")" }, ["22203 \(fpA)"], "\(args)")
        }
        XCTAssertEqual(try fx.run(["known-hosts", "history", "gitbox"]).stderr,
                       "hostbook: 'gitbox' is a saved host: using '127.0.0.1' port 22203\n")
        // A plain name alone: every port, as before.
        let plain = try XCTUnwrap(try fx.json("known-hosts", "history", "127.0.0.1") as? [[String: Any]])
        XCTAssertEqual(plain.map { $0["fingerprint"] as? String }, [fpA, fpB])
        try fx.fails(["known-hosts", "history", "[127.0.0.1]:2"], status: 4,
                     stderr: "hostbook: nothing was ever decided about '127.0.0.1' port 2\nRun 'hostbook known-hosts history' to see every host's events.\n")
        XCTAssertEqual(try fx.run(["known-hosts", "history", "--port", "22"]).status, 2, "--port needs HOST")

        // One parser: the same refusal, naming what it got, from every command that takes HOST.
        for command in [["history"], ["list"], ["check", "--key", keyA], ["scan"]] {
            for (bad, why) in [("[127.0.0.1]x", "brackets are allowed only as [host]:port"),
                               ("a[b]", "brackets are allowed only around the whole host, as [host]:port")] {
                let r = try fx.run(["known-hosts", command[0], bad] + command.dropFirst())
                XCTAssertEqual(r.status, 2, "\(command) \(bad): \(r.stderr)")
                XCTAssertTrue(r.stderr.hasPrefix("hostbook: '\(bad)' is not a host name: \(why)\n"), "\(command) \(bad): \(r.stderr)")
            }
        }
        // scan takes [HOST]:PORT: nothing listens on port 1, which is a failure to scan, not a usage error.
        let scan = try fx.run(["known-hosts", "scan", "[127.0.0.1]:1", "--timeout", "2"])
        XCTAssertEqual(scan.status, 1, scan.stderr)
        XCTAssertTrue(scan.stderr.hasPrefix("hostbook: cannot scan '127.0.0.1' port 1: "), scan.stderr)
    }
}

