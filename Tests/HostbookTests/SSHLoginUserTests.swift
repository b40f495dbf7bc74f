// `hostbook ssh USER@NAME` and `hostbook ssh -l USER NAME`: the saved host is found by NAME
// and USER replaces its saved user for that connection only, as ssh reads its destination;
// the jump hosts keep their own users. Real logins against private sshds.
import Foundation
import XCTest

final class SSHLoginUserTests: XCTestCase {
    override func setUpWithError() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
    }

    func testUserAtNameAndDashLLogInAsThatUserAndTheJumpHostKeepsItsOwn() throws {
        let bed = try SSHTestBed()
        // As root (CI), the fixture's own account is a second real user; else root itself.
        let other = bed.fx.account?.name ?? "root"
        let pub = try bed.importKey("k")
        let gate = try PrivateSSHD(authorizedKeys: [pub])
        let inner = try PrivateSSHD(authorizedKeys: [pub])
        try bed.fx.ok("add", "gate", "--hostname", "127.0.0.1", "--port", String(gate.port), "--user", "root", "--key", "k")
        try bed.fx.ok("add", "inner", "--hostname", "127.0.0.1", "--port", String(inner.port), "--user", "nosuchuser",
                      "--key", "k", "--jump", "gate")
        try bed.trust(gate)
        try bed.trust(inner)

        for args in [["\(other)@inner"], ["-l", other, "inner"], ["-l\(other)", "inner"], ["--user", other, "inner"],
                     // -l wins over USER@, as in ssh.
                     ["-l", other, "nosuchuser@inner"]] {
            let r = try bed.ssh(args + ["echo in as $(id -un)"])
            XCTAssertEqual(r.status, 0, "\(args): " + r.stderr + gate.log + inner.log)
            XCTAssertEqual(r.stdout, "in as \(other)\n", "\(args)")
        }
        XCTAssertTrue(inner.log.contains("Accepted publickey for \(other)"), inner.log)
        XCTAssertFalse(inner.log.contains("nosuchuser"), inner.log)
        XCTAssertTrue(gate.log.contains("Accepted publickey for root"), gate.log)
        XCTAssertFalse(gate.log.contains("for \(other) from") && other != "root", gate.log)
        // The saved user is unchanged.
        XCTAssertTrue(try bed.fx.ok("show", "inner").stdout.contains("nosuchuser"))
        try bed.assertNothingLeft()
    }

    func testTheSessionConfigurationHasTheUserAndNoStoredPasswordForAnotherUser() throws {
        let bed = try SSHTestBed()
        try bed.importKey("k")
        try bed.fx.ok("add", "gate", "--hostname", "gate.example.com", "--user", "jumper", "--key", "k")
        try bed.fx.ok("add", "db", "--hostname", "10.0.0.5", "--user", "admin", "--jump", "gate", "--password-stdin", stdin: "pw")
        let other = try bed.ssh(["--print-config", "root@db"])
        XCTAssertEqual(other.status, 0, other.stderr)
        XCTAssertTrue(other.stdout.hasPrefix("Host db\n    HostName 10.0.0.5\n    Port 22\n    User root\n    ProxyJump gate\n"), other.stdout)
        XCTAssertTrue(other.stdout.contains("\nHost gate\n    HostName gate.example.com\n    Port 22\n    User jumper\n"), other.stdout)
        // admin's stored password is not answered for root: ssh asks itself.
        XCTAssertFalse(other.stdout.contains("NumberOfPasswordPrompts"), other.stdout)
        XCTAssertFalse(other.stdout.contains("PasswordAuthentication yes"), other.stdout)
        // The saved user given explicitly changes nothing.
        let same = try bed.ssh(["--print-config", "-l", "admin", "db"])
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertEqual(same.stdout, try bed.ssh(["--print-config", "db"]).stdout)
        XCTAssertTrue(same.stdout.contains("    NumberOfPasswordPrompts 1\n"), same.stdout)
    }

    func testABadUserOrAMissingValueIsRefused() throws {
        let bed = try SSHTestBed()
        try bed.fx.ok("add", "db", "--hostname", "10.0.0.5", "--user", "admin")
        let bad = try bed.ssh(["--print-config", "two words@db"])
        XCTAssertEqual(bad.status, 5, bad.stderr)
        XCTAssertTrue(bad.stderr.hasPrefix("hostbook: invalid user 'two words'"), bad.stderr)
        XCTAssertEqual(bad.stdout, "")
        let missing = try bed.ssh(["-l"])
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.hasPrefix("hostbook: -l needs a value (USER)\n"), missing.stderr)
        let unknown = try bed.ssh(["--print-config", "root@nosuch"])
        XCTAssertEqual(unknown.status, 4, unknown.stderr)
        XCTAssertTrue(unknown.stderr.hasPrefix("hostbook: no host named 'nosuch'"), unknown.stderr)
        // --help names the short spelling.
        XCTAssertTrue(try bed.fx.ok("ssh", "--help").stdout.contains("-l, --user USER"))
    }
}
