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

    /// ssh reads options after the destination too (ssh.c): hostbook plans for the user
    /// they give, by ssh's rules, and still passes them on unchanged.
    func testAUserAmongSSHsOptionsAfterHostIsTheOneThePlanIsFor() throws {
        let bed = try SSHTestBed()
        try bed.fx.ok("add", "db", "--hostname", "10.0.0.5", "--user", "admin", "--password-stdin", stdin: "pw")
        func user(_ args: [String]) throws -> String {
            let r = try bed.ssh(["--print-config"] + args)
            XCTAssertEqual(r.status, 0, "\(args): " + r.stderr)
            return r.stdout.split(separator: "\n").first { $0.hasPrefix("    User ") }.map { String($0.dropFirst(9)) } ?? "?"
        }
        for (args, expected) in [(["db", "-l", "root"], "root"), (["db", "-lroot"], "root"), (["db", "-o", "User=root"], "root"),
                                 (["db", "-oUSER=root"], "root"), (["db", "-o", "user root"], "root"), (["db", "-o", "User = \"root\""], "root"),
                                 // Flags and options with values before it, in clusters too.
                                 (["db", "-v", "-p", "22", "-E", "-l", "-l", "root"], "root"), (["db", "-tvl", "root"], "root"),
                                 (["db", "-p22", "-oPort=22", "-l", "root"], "root"),
                                 // The first user wins; after HOST over -l before it and USER@.
                                 (["db", "-l", "root", "-o", "User=bob"], "root"), (["db", "-o", "User=bob", "-l", "root"], "bob"),
                                 (["-l", "bob", "db", "-l", "root"], "root"), (["bob@db", "-oUser=root"], "root"),
                                 // The remote command, `--`, and other keywords end nothing early or say nothing.
                                 (["db", "echo", "-l", "root"], "admin"), (["db", "--", "-l", "root"], "admin"),
                                 (["db", "-o", "UserKnownHostsFile=/x", "-o", "Username=root"], "admin"), (["db", "-", "-l", "root"], "admin")] {
            XCTAssertEqual(try user(args), expected, "\(args)")
        }
        // The saved user after HOST is the saved user: the stored password is answered.
        let same = try bed.ssh(["--print-config", "-l", "bob", "db", "-l", "admin"])
        XCTAssertTrue(same.stdout.contains("    NumberOfPasswordPrompts 1\n"), same.stdout)
        let other = try bed.ssh(["--print-config", "db", "-o", "User=root"])
        XCTAssertFalse(other.stdout.contains("NumberOfPasswordPrompts"), other.stdout)
        // ssh agrees: `ssh -G` with the same arguments after the destination (no user
        // there: ssh's is the local one, hostbook's the saved one).
        for args in [["-l", "carol"], ["-tvl", "carol"], ["-oUSER=carol"], ["-p", "22", "-lcarol"], ["echo", "-l", "carol"],
                     ["--", "-l", "carol"], ["-o", "User=bob", "-l", "carol"]] {
            let g = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/ssh"), ["-F", "/dev/null", "-G", "10.0.0.5"] + args)
            XCTAssertEqual(g.status, 0, g.stderr)
            let sshUser = g.stdout.split(separator: "\n").first { $0.hasPrefix("user ") }.map { String($0.dropFirst(5)) }
            let planned = try user(["db"] + args)
            let expected = sshUser.flatMap { ["carol", "bob"].contains($0) ? $0 : nil } ?? "-"
            XCTAssertEqual(planned == "admin" ? "-" : planned, expected, "\(args)")
        }
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
