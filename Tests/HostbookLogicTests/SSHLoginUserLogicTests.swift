// `hostbook ssh USER@NAME` and `hostbook ssh -l USER NAME` as planned, in-process
// (InProcessCommand runs Hostbook.main; --print-config shows the plan): the saved host is
// found by NAME and USER replaces its saved user for that connection only, as ssh reads its
// destination (`ssh -G` agrees); a stored password is answered only for the saved user; a
// bad user or a missing value is refused. Moved from HostbookTests/SSHLoginUserTests, which
// logs in for real against private sshds.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class SSHLoginUserLogicTests: XCTestCase {
    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
    }

    func ssh(_ hb: InProcessCommand, _ args: [String]) throws -> InProcessCommand.Outcome { try hb.call(["ssh"] + args) }

    /// A passphrase-protected key made by ssh-keygen, imported as `name`.
    func importKey(_ hb: InProcessCommand, _ name: String) throws {
        let path = hb.dir.file("\(name)-key")
        XCTAssertEqual(try Tool.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "correct horse", "-C", name, "-f", path]).status, 0)
        try hb.ok("keys", "import", path, "--name", name, "--passphrase-stdin", stdin: "correct horse")
    }

    func testTheSessionConfigurationHasTheUserAndNoStoredPasswordForAnotherUser() throws {
        let hb = try InProcessCommand()
        try importKey(hb, "k")
        try hb.ok("add", "gate", "--hostname", "gate.example.com", "--user", "jumper", "--key", "k")
        try hb.ok("add", "db", "--hostname", "10.0.0.5", "--user", "admin", "--jump", "gate", "--password-stdin", stdin: "pw")
        let other = try ssh(hb, ["--print-config", "root@db"])
        XCTAssertEqual(other.status, 0, other.stderr)
        XCTAssertTrue(other.stdout.hasPrefix("Host db\n    HostName 10.0.0.5\n    Port 22\n    User root\n    ProxyJump gate\n"), other.stdout)
        XCTAssertTrue(other.stdout.contains("\nHost gate\n    HostName gate.example.com\n    Port 22\n    User jumper\n"), other.stdout)
        // admin's stored password is not answered for root: ssh asks itself.
        XCTAssertFalse(other.stdout.contains("NumberOfPasswordPrompts"), other.stdout)
        XCTAssertFalse(other.stdout.contains("PasswordAuthentication yes"), other.stdout)
        // The saved user given explicitly changes nothing.
        let same = try ssh(hb, ["--print-config", "-l", "admin", "db"])
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertEqual(same.stdout, try ssh(hb, ["--print-config", "db"]).stdout)
        XCTAssertTrue(same.stdout.contains("    NumberOfPasswordPrompts 1\n"), same.stdout)
    }

    /// ssh reads options after the destination too (ssh.c): hostbook plans for the user
    /// they give, by ssh's rules, and still passes them on unchanged.
    func testAUserAmongSSHsOptionsAfterHostIsTheOneThePlanIsFor() throws {
        let hb = try InProcessCommand()
        try hb.ok("add", "db", "--hostname", "10.0.0.5", "--user", "admin", "--password-stdin", stdin: "pw")
        func user(_ args: [String]) throws -> String {
            let r = try ssh(hb, ["--print-config"] + args)
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
        let same = try ssh(hb, ["--print-config", "-l", "bob", "db", "-l", "admin"])
        XCTAssertTrue(same.stdout.contains("    NumberOfPasswordPrompts 1\n"), same.stdout)
        let other = try ssh(hb, ["--print-config", "db", "-o", "User=root"])
        XCTAssertFalse(other.stdout.contains("NumberOfPasswordPrompts"), other.stdout)
        // ssh agrees: `ssh -G` with the same arguments after the destination (no user
        // there: ssh's is the local one, hostbook's the saved one).
        for args in [["-l", "carol"], ["-tvl", "carol"], ["-oUSER=carol"], ["-p", "22", "-lcarol"], ["echo", "-l", "carol"],
                     ["--", "-l", "carol"], ["-o", "User=bob", "-l", "carol"]] {
            let g = try Tool.run("/usr/bin/ssh", ["-F", "/dev/null", "-G", "10.0.0.5"] + args)
            XCTAssertEqual(g.status, 0, g.stderr)
            let sshUser = g.stdout.split(separator: "\n").first { $0.hasPrefix("user ") }.map { String($0.dropFirst(5)) }
            let planned = try user(["db"] + args)
            let expected = sshUser.flatMap { ["carol", "bob"].contains($0) ? $0 : nil } ?? "-"
            XCTAssertEqual(planned == "admin" ? "-" : planned, expected, "\(args)")
        }
    }

    func testABadUserOrAMissingValueIsRefused() throws {
        let hb = try InProcessCommand()
        try hb.ok("add", "db", "--hostname", "10.0.0.5", "--user", "admin")
        let bad = try ssh(hb, ["--print-config", "two words@db"])
        XCTAssertEqual(bad.status, 5, bad.stderr)
        XCTAssertTrue(bad.stderr.hasPrefix("hostbook: invalid user 'two words'"), bad.stderr)
        XCTAssertEqual(bad.stdout, "")
        let missing = try ssh(hb, ["-l"])
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.hasPrefix("hostbook: -l needs a value (USER)\n"), missing.stderr)
        let unknown = try ssh(hb, ["--print-config", "root@nosuch"])
        XCTAssertEqual(unknown.status, 4, unknown.stderr)
        XCTAssertTrue(unknown.stderr.hasPrefix("hostbook: no host named 'nosuch'"), unknown.stderr)
        // --help names the short spelling.
        XCTAssertTrue(try hb.ok("ssh", "--help").stdout.contains("-l, --user USER"))
    }
}
