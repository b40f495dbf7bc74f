// A host's aliases end to end: `hostbook ssh` and the installed configuration's Host line
// reach a host by its alias. Adding, showing, finding and removing aliases, every refusal,
// and `Host devbox dev` in an ssh_config imported as one host with an alias are tested
// in-process: HostbookLogicTests/HostAliasLogicTests.
import Foundation
import TestSupport
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
}
