// A host's aliases: `add/edit --alias A`, `edit --no-alias A`; unique among names and
// aliases; shown by show and list --json; accepted wherever a host name is (show, edit,
// jump targets, `hostbook ssh`); completed; on the installed configuration's Host line; and
// `Host devbox dev` in an ssh_config imported as one host with an alias.
import Foundation
import XCTest

final class HostAliasTests: XCTestCase {
    override func setUpWithError() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
    }

    func testAliasesAreAddedShownFoundAndRemoved() throws {
        let fx = try HostbookFixture()
        let added = try fx.run(["add", "devbox", "--hostname", "10.0.0.5", "--alias", "dev", "--alias", "box"])
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
        let bad = try fx.run(["add", "y", "--hostname", "h", "--alias", "a b"])
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
        XCTAssertEqual(try fx.run(["show", "box"]).status, 4)
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

    func testHostbookSSHAndTheInstalledConfigurationReachAHostByItsAlias() throws {
        let bed = try SSHTestBed()
        let pub = try bed.importKey("k")
        let sshd = try PrivateSSHD(authorizedKeys: [pub])
        try bed.fx.ok("add", "devbox", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k",
                      "--alias", "dev")
        try bed.trust(sshd)
        let r = try bed.ssh(["dev", "echo reached"])
        XCTAssertEqual(r.status, 0, r.stderr + sshd.log)
        XCTAssertEqual(r.stdout, "reached\n")

        let printed = try bed.fx.run(["ssh-config"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertTrue(printed.stdout.contains("\nHost devbox dev\n"), printed.stdout)
        // An alias the user's own configuration defines stays theirs.
        let userConfig = bed.home + "/.ssh/config"
        try Data("Host dev\n    User mine\n".utf8).write(to: URL(fileURLWithPath: userConfig))
        chmod(userConfig, 0o644)
        let clash = try bed.fx.run(["ssh-config"])
        XCTAssertTrue(clash.stdout.contains("\nHost devbox\n"), clash.stdout)
        XCTAssertTrue(clash.stderr.contains("left out the alias 'dev' of host 'devbox'"), clash.stderr)
        try Data("# mine\n".utf8).write(to: URL(fileURLWithPath: userConfig))

        XCTAssertEqual(try bed.fx.run(["ssh-config", "--install"]).status, 0)
        let start = try bed.fx.run(["agent", "start"])
        XCTAssertEqual(start.status, 0, start.stderr)
        defer { _ = try? bed.fx.run(["agent", "stop"]) }
        var env = bed.fx.environment
        env["CFG"] = userConfig
        let plain = try Shell.run("unset SSH_AUTH_SOCK; ssh -F \"$CFG\" -o BatchMode=yes dev echo plain ssh reached",
                                  environment: env, account: bed.fx.account)
        XCTAssertEqual(plain.status, 0, plain.stderr + sshd.log)
        XCTAssertEqual(plain.stdout, "plain ssh reached\n")
        XCTAssertEqual(try bed.fx.run(["agent", "stop"]).status, 0)
        XCTAssertEqual(try bed.fx.run(["ssh-config", "--uninstall"]).status, 0)
    }

    func testImportReadsAHostLineWithTwoNamesAsOneHostWithAnAlias() throws {
        let fx = try HostbookFixture()
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
