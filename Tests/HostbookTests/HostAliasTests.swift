// A host's aliases end to end: `hostbook ssh` and the installed configuration's Host line
// reach a host by its alias, and `Host devbox dev` in an ssh_config is imported as one host
// with an alias. Adding, showing, finding and removing aliases, and every refusal, are
// tested in-process: HostbookLogicTests/HostAliasLogicTests.
import Foundation
import XCTest

final class HostAliasTests: XCTestCase {
    override func setUpWithError() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
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
