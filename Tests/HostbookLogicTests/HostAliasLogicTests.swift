// A host's aliases in-process (InProcessCommand runs Hostbook.main on a real SQLite file):
// `add/edit --alias A`, `edit --no-alias A`; unique among names and aliases with each
// refusal's exact words; shown by show and list --json; accepted wherever a host name is
// (show, edit, jump targets); completed. Was HostbookTests/HostAliasTests'
// testAliasesAreAddedShownFoundAndRemoved (binary); import of a Host line with two names
// too. `hostbook ssh` and the installed configuration by alias stay there.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class HostAliasLogicTests: XCTestCase {
    func testAliasesAreAddedShownFoundAndRemoved() throws {
        let fx = try InProcessCommand()
        let added = try fx.call(["add", "devbox", "--hostname", "10.0.0.5", "--alias", "dev", "--alias", "box"])
        XCTAssertEqual(added.status, 0, added.stderr)
        // show by an alias (any letter case) shows the host, its aliases sorted.
        let shown = try fx.ok("show", "DEV").stdout
        XCTAssertTrue(shown.hasPrefix("name:     devbox\naliases:  box, dev\nhostname: 10.0.0.5\n"), shown)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try fx.ok("show", "box", "--json").stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["name"] as? String, "devbox")
        XCTAssertEqual(json["aliases"] as? [String], ["box", "dev"])
        try fx.ok("add", "plain", "--hostname", "10.0.0.6")
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try fx.ok("list", "--json").stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(list.map { $0["aliases"] as? [String] }, [["box", "dev"], []])

        // Unique among names and aliases, any letter case, both ways.
        try fx.fails(["add", "Dev", "--hostname", "h"], status: 5,
                     stderr: "hostbook: 'dev' is already an alias of host 'devbox'\nChoose another name, or change it with 'hostbook edit devbox'.\n")
        try fx.fails(["add", "other", "--hostname", "h", "--alias", "PLAIN"], status: 5,
                     stderr: "hostbook: a host named 'plain' already exists\nChoose another alias.\n")
        try fx.fails(["edit", "plain", "--alias", "box"], status: 5,
                     stderr: "hostbook: 'box' is already an alias of host 'devbox'\nChoose another alias.\n")
        try fx.fails(["edit", "plain", "--rename", "dev"], status: 5,
                     stderr: "hostbook: 'dev' is already an alias of host 'devbox'\nChoose another name.\n")
        try fx.fails(["add", "x", "--hostname", "h", "--alias", "x"], status: 5,
                     stderr: "hostbook: 'x' is the name of host 'x' itself\nChoose another alias.\n")
        // The same rule as names.
        let bad = try fx.call(["add", "y", "--hostname", "h", "--alias", "a b"])
        XCTAssertEqual(bad.status, 5)
        XCTAssertTrue(bad.stderr.hasPrefix("hostbook: invalid alias 'a b': use 1 to 64 letters, digits, '.', '_' or '-'\n"), bad.stderr)
        try fx.fails(["edit", "plain", "--no-alias", "dev"], status: 5,
                     stderr: "hostbook: host 'plain' has no alias 'dev'\nIt has no aliases.\n")

        // A jump host named by its alias; edit through an alias.
        try fx.ok("add", "inner", "--hostname", "10.0.0.7", "--jump", "dev")
        XCTAssertTrue(try fx.ok("show", "inner").stdout.contains("jump:     devbox\n"))
        try fx.ok("edit", "box", "--no-alias", "box", "--alias", "db1", "--port", "2222")
        let after = try fx.ok("show", "devbox").stdout
        XCTAssertTrue(after.contains("aliases:  db1, dev\n"), after)
        XCTAssertTrue(after.contains("port:     2222\n"), after)
        XCTAssertEqual(try fx.call(["show", "box"]).status, 4)
        // Renamed to its own alias: the alias becomes the name.
        try fx.ok("edit", "devbox", "--rename", "dev")
        XCTAssertTrue(try fx.ok("show", "dev").stdout.hasPrefix("name:     dev\naliases:  db1\n"))
        // Completion offers names and aliases.
        XCTAssertEqual(try fx.ok("__complete", "hosts", "d").stdout, "db1\ndev\n")
        // Removing the host removes its aliases: the name is free again.
        try fx.ok("edit", "inner", "--no-jump")
        try fx.ok("remove", "db1", "--yes")
        try fx.ok("add", "db1", "--hostname", "10.0.0.8")
    }

    func testImportReadsAHostLineWithTwoNamesAsOneHostWithAnAlias() throws {
        let fx = try InProcessCommand()
        let file = fx.dir.file("config")
        try Data("""
            Host devbox dev
                HostName 10.0.0.5
                User ops
            Host web1 web2
                HostName %h.example.com
            Host gate
                HostName 10.0.0.9
                ProxyJump dev

            """.utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o644)
        let r = try fx.run(["import-ssh-config", file, "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let hosts = report["hosts"] as? [[String: Any]] ?? []
        XCTAssertEqual(hosts.map { $0["name"] as? String }, ["devbox", "web1", "web2", "gate"])
        XCTAssertEqual(hosts.first?["aliases"] as? [String], ["dev"])
        XCTAssertEqual(hosts.last?["jump"] as? String, "devbox")
        XCTAssertEqual(report["added"] as? Int, 4)
        let shown = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try fx.ok("show", "dev", "--json").stdout.utf8)) as? [String: Any])
        XCTAssertEqual(shown["name"] as? String, "devbox")
        XCTAssertEqual(shown["hostname"] as? String, "10.0.0.5")
        XCTAssertEqual(shown["aliases"] as? [String], ["dev"])
        // %h makes two hosts, as ssh sees them.
        XCTAssertTrue(try fx.ok("show", "web2").stdout.contains("hostname: web2.example.com\n"))
        // Again: nothing changes.
        let again = try fx.run(["import-ssh-config", file])
        XCTAssertTrue(again.stdout.hasSuffix("0 added, 0 updated, 4 unchanged, 0 skipped.\n"), again.stdout)
        // A later Host line naming an existing alias is skipped with the reason.
        try Data("Host dev\n    HostName 10.0.0.77\n".utf8).write(to: URL(fileURLWithPath: file))
        let taken = try fx.run(["import-ssh-config", file, "--json"])
        let takenHosts = (try JSONSerialization.jsonObject(with: Data(taken.stdout.utf8)) as? [String: Any])?["hosts"] as? [[String: Any]] ?? []
        XCTAssertEqual(takenHosts.first?["action"] as? String, "skipped")
        XCTAssertEqual(takenHosts.first?["reason"] as? String, "'dev' is an alias of host 'devbox'")
    }
}
