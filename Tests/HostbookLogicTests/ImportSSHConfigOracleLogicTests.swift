// `hostbook import-ssh-config` in-process (InProcessCommand runs Hostbook.main), a temporary
// HOME (relative Include paths are taken from ~/.ssh) and the real `ssh -G -F FILE ALIAS` as
// the oracle for what each host resolves to; refusals' exit codes; the report's escaping.
// Moved from HostbookTests/ImportSSHConfigTests. Re-import, dry run, what cannot be kept and
// key links: ImportSSHConfigLogicTests.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class ImportSSHConfigOracleLogicTests: ImportSSHConfigCase {
    func testEveryConcreteHostResolvesAsSshG() throws {
        let file = try writeRichConfig()
        let report = try importJSON()
        let names = hosts(report).map { $0["name"] as? String ?? "" }
        // `Host web1 web2` with one HostName: one host, web2 its alias; `Host db1 db2` with
        // %h in HostName: two hosts.
        XCTAssertEqual(names, ["bastion", "db1", "db2", "web1", "web3", "app.example.org", "skip.example.org"])
        XCTAssertEqual(byName(report)["web1"]?["aliases"] as? [String], ["web2"])
        XCTAssertEqual(byName(report)["db1"]?["aliases"] as? [String], [])
        let web1 = try sshG(file, "web1"), web2 = try sshG(file, "web2")
        for key in ["hostname", "port", "user", "proxyjump"] { XCTAssertEqual(web1[key], web2[key], key) }
        for h in hosts(report) {
            let alias = h["alias"] as? String ?? ""
            let action = h["action"] as? String
            let g = try sshG(file, alias)
            // "app user" is no valid login name for hostbook: skipped, with the reason.
            if alias == "app.example.org" || alias == "skip.example.org" {
                XCTAssertEqual(action, "skipped")
                XCTAssertEqual(g["user"], ["app user"])
                XCTAssertEqual(h["reason"] as? String, "invalid user 'app user': use 1 to 64 letters, digits, '.', '_', '-' or '@', not starting with '-'")
                continue
            }
            XCTAssertEqual(action, "added", alias)
            XCTAssertEqual([h["hostname"] as? String ?? ""], g["hostname"], alias)
            XCTAssertEqual(["\(h["port"] as? Int ?? 0)"], g["port"], alias)
            XCTAssertEqual([h["user"] as? String ?? Self.localUser], g["user"], alias)
            XCTAssertEqual((h["jump"] as? String).map { [$0] }, g["proxyjump"], alias)
            XCTAssertEqual(h["source_file"] as? String, alias.hasPrefix("db") || alias == "bastion"
                           ? sshDir + "/conf.d/" + (alias == "bastion" ? "10-bastion.conf" : "20-db.conf") : file)
        }
        XCTAssertEqual(byName(report)["web1"]?["source_line"] as? Int, 3)
        // The default file is ~/.ssh/config; list shows what was stored.
        let list = try hostbook(["list", "--json"])
        let stored = try XCTUnwrap(try JSONSerialization.jsonObject(with: list.stdoutBytes) as? [[String: Any]])
        XCTAssertEqual(stored.count, 5)
        XCTAssertTrue(stored.allSatisfy { $0["source"] as? String == "ssh-config" })
    }

    /// A host reached through a ProxyCommand is skipped with the reason, not imported without
    /// it (hostbook would connect to it directly); `ProxyCommand none` is no proxy at all,
    /// and a host that jumps through the skipped one says its jump host is missing.
    func testTextFromTheFileIsEscaped() throws {
        let file = try write("config", "Host evil\n  HostName \"x\u{1b}[31my\"\n  SetEnv A=\u{202e}b\n")
        let r = try hostbook(["import-ssh-config", file])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stdout.unicodeScalars.contains { $0 == "\u{1b}" || $0 == "\u{202e}" }, r.stdout)
        XCTAssertTrue(r.stdout.contains("x\\u{1b}[31my"), r.stdout)
        XCTAssertTrue(r.stdout.contains("skipped"), r.stdout)
    }

    func testRefusals() throws {
        let missing = home + "/.ssh/config"
        var r = try hostbook(["import-ssh-config"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "hostbook: cannot read '\(missing)': No such file or directory\nName the configuration to import: hostbook import-ssh-config FILE\n")
        XCTAssertEqual(r.stdout, "")

        let bad = try write("config", "Host a\n  HostName \"open\n")
        r = try hostbook(["import-ssh-config", bad])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "hostbook: \(bad) line 2: invalid quotes\nssh refuses this file too; fix the line and import again. Nothing was imported and the file was not changed.\n")

        try write("config", "Host a\nInclude config\n")
        r = try hostbook(["import-ssh-config"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("Too many recursive configuration includes"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))

        r = try hostbook(["import-ssh-config", "a", "b"])
        XCTAssertEqual(r.status, 2, r.stderr)
    }
}
