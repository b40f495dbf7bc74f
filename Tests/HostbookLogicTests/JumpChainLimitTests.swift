// One limit on a chain of jump hosts (JumpChain.maxHosts = 8: the host and 7 jump hosts),
// the same for saving, connecting and the installed configuration: `add` and `edit`
// refuse a 9-host chain (exit 5), and one already in a database (written by an older
// hostbook, here by sqlite3) is refused by `hostbook ssh` and left out, with a warning, by
// `hostbook ssh-config`; `import-ssh-config` keeps no ProxyJump that would make one, with
// the same words. (Before: `add` took chains up to 10,000 hosts, `ssh` stopped at 8
// with a message counting them wrongly, and ssh-config wrote the whole chain.)
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class JumpChainLimitTests: XCTestCase {
    func testANineHostChainIsTreatedAlikeByAddSSHAndSSHConfig() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { throw XCTSkip("sqlite3 is not installed") }
        let fx = try InProcessCommand()
        try fx.ok("add", "h1", "--hostname", "h1.test")
        for i in 2...8 { try fx.ok("add", "h\(i)", "--hostname", "h\(i).test", "--jump", "h\(i - 1)") }

        let tooLong = "hostbook: the jump hosts of 'h9' make a chain of more than 8 hosts (the host and at most 7 jump hosts)\n"
        let hint = "Shorten the chain with 'hostbook edit NAME --jump' or '--no-jump'.\n"
        let add = try fx.run(["add", "h9", "--hostname", "h9.test", "--jump", "h8"])
        XCTAssertEqual(add.status, 5, add.stderr)
        XCTAssertTrue(add.stderr.hasPrefix(tooLong), add.stderr)
        XCTAssertFalse(try fx.run(["show", "h9"]).status == 0, "nothing was saved")

        try fx.ok("add", "h9", "--hostname", "h9.test")
        let edit = try fx.run(["edit", "h9", "--jump", "h8"])
        XCTAssertEqual(edit.status, 5, edit.stderr)
        XCTAssertTrue(edit.stderr.hasPrefix(tooLong), edit.stderr)
        // Lengthening the chain from below refuses too, naming the host at its top.
        try fx.ok("add", "h0", "--hostname", "h0.test")
        let below = try fx.run(["edit", "h1", "--jump", "h0"])
        XCTAssertEqual(below.status, 5, below.stderr)
        XCTAssertEqual(below.stderr, tooLong.replacingOccurrences(of: "'h9'", with: "'h8'") + hint)

        // A 9-host chain already in the database.
        let update = "UPDATE hosts SET jump_host_id = (SELECT id FROM hosts WHERE name = 'h8') WHERE name = 'h9';"
        let sql = try fx.tool("/usr/bin/sqlite3", [fx.db, update])
        XCTAssertEqual(sql.status, 0, sql.stderr)
        XCTAssertEqual(try fx.json("show", "h9") as? [String: Any] == nil, false)

        let ssh = try fx.run(["ssh", "h9", "true"])
        XCTAssertNotEqual(ssh.status, 0)
        XCTAssertTrue(ssh.stderr.hasPrefix(tooLong), ssh.stderr)

        let config = try fx.run(["ssh-config"])
        XCTAssertEqual(config.status, 0, config.stderr)
        XCTAssertFalse(config.stdout.contains("Host h9\n"), config.stdout)
        XCTAssertTrue(config.stdout.contains("Host h8\n"), config.stdout)
        XCTAssertTrue(config.stderr.contains("skipped host 'h9': its jump hosts make a chain of more than 8 hosts"), config.stderr)
    }

    /// A configuration whose ProxyJumps make a 9-host chain (c1 through c2, ..., c8 through
    /// c9): the import keeps every host but not the ProxyJump of c1, and says why in add's
    /// words; what is saved is an 8-host chain that `ssh-config` writes whole. Importing again
    /// changes nothing. (Before: the import saved the 9-host chain, which `hostbook ssh`
    /// refused and `ssh-config` left out.)
    func testImportSSHConfigKeepsNoChainAddWouldRefuse() throws {
        let fx = try InProcessCommand()
        fx.environment["HOME"] = fx.dir.file("home")
        fx.environment["XDG_CONFIG_HOME"] = fx.dir.file("home/.config")
        let file = fx.dir.file("chain.conf")
        let text = (1...9).map { i in "Host c\(i)\n  HostName c\(i).test\n" + (i < 9 ? "  ProxyJump c\(i + 1)\n" : "") }.joined()
        try text.write(toFile: file, atomically: true, encoding: .utf8)

        let tooLong = "the jump hosts of 'c1' make a chain of more than 8 hosts (the host and at most 7 jump hosts)"
        func imported() throws -> [String: [String: Any]] {
            let r = try fx.run(["import-ssh-config", file, "--json"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any])
            let hosts = report["hosts"] as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: hosts.map { ($0["name"] as? String ?? "", $0) })
        }
        let first = try imported()
        XCTAssertEqual(first.count, 9)
        XCTAssertEqual(first["c1"]?["not_imported"] as? [String], ["ProxyJump c2: \(tooLong)"])
        XCTAssertTrue(first["c1"]?["jump"] is NSNull, "\(first["c1"] ?? [:])")
        for i in 2...8 { XCTAssertEqual(first["c\(i)"]?["jump"] as? String, "c\(i + 1)") }
        XCTAssertEqual(Set(first.values.compactMap { $0["action"] as? String }), ["added"])
        XCTAssertTrue((try fx.json("show", "c1") as? [String: Any])?["jump"] is NSNull)
        XCTAssertEqual((try fx.json("show", "c2") as? [String: Any])?["jump"] as? String, "c3")

        // add/edit refuse the same jump host with the same words.
        let edit = try fx.run(["edit", "c1", "--jump", "c2"])
        XCTAssertEqual(edit.status, 5, edit.stderr)
        XCTAssertTrue(edit.stderr.hasPrefix("hostbook: \(tooLong)\n"), edit.stderr)
        // ssh-config writes every saved host (no chain is too long) and warns of nothing.
        let config = try fx.run(["ssh-config"])
        XCTAssertEqual(config.status, 0, config.stderr)
        XCTAssertEqual(config.stderr, "")
        for i in 1...9 { XCTAssertTrue(config.stdout.contains("Host c\(i)\n"), config.stdout) }

        let again = try imported()
        XCTAssertEqual(Set(again.values.compactMap { $0["action"] as? String }), ["unchanged"])
        XCTAssertEqual(again["c1"]?["not_imported"] as? [String], ["ProxyJump c2: \(tooLong)"])
    }
}
