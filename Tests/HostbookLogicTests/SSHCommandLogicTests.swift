// `hostbook ssh` where nothing is started, in-process (InProcessCommand runs Hostbook.main):
// a host that does not exist, no ssh on PATH, and --print-config's blocks with no secret in
// them (the real Secret Service inside scripts/with-keyring). Moved from
// HostbookTests/SSHCommandTests, which connects the real ssh to private sshds.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class SSHCommandLogicTests: XCTestCase {
    var hb: InProcessCommand!

    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
        hb = try InProcessCommand()
    }
    override func tearDown() { hb = nil }

    func ssh(_ args: [String]) throws -> InProcessCommand.Outcome { try hb.call(["ssh"] + args) }

    func testAHostThatDoesNotExistIsExit4() throws {
        let none = try ssh(["nowhere", "true"])
        XCTAssertEqual(none.status, 4)
        XCTAssertEqual(none.stderr, "hostbook: no host named 'nowhere'\nRun 'hostbook list' to see the saved hosts, or 'hostbook add' to add one.\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: hb.db), "a failed ssh creates no database")
        try hb.ok("add", "other", "--hostname", "127.0.0.1")
        XCTAssertEqual(try ssh(["nowhere"]).status, 4)
        XCTAssertEqual(try ssh([]).status, 2)
        // No ssh on PATH: a clear error before anything is started.
        hb.environment["PATH"] = hb.dir.file("empty-bin")
        let noSSH = try ssh(["other", "true"])
        XCTAssertEqual(noSSH.status, 1)
        XCTAssertEqual(noSSH.stderr, "hostbook: ssh was not found on PATH\nInstall the openssh-client package (OpenSSH 8.5 or later).\n")
    }

    func testPrintConfigShowsTheBlocksAndNoSecret() throws {
        let key = hb.dir.file("k-key")
        XCTAssertEqual(try Tool.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "correct horse", "-C", "k", "-f", key]).status, 0)
        try hb.ok("keys", "import", key, "--name", "k", "--passphrase-stdin", stdin: "correct horse\n")
        try hb.ok("add", "gate", "--hostname", "gate.example.com", "--port", "2200", "--user", "jumper", "--key", "k")
        try hb.ok("add", "db", "--hostname", "10.0.0.5", "--user", "admin", "--jump", "gate", "--password-stdin", stdin: "pw-not-printed")
        let r = try ssh(["--print-config", "db"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("Host db\n    HostName 10.0.0.5\n    Port 22\n    User admin\n    ProxyJump gate\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("\nHost gate\n    HostName gate.example.com\n    Port 2200\n    User jumper\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains(" known-hosts lookup %I %H %h %p %t %K %n\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("    NumberOfPasswordPrompts 1\n"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("Match all\n    Include ~/.ssh/config\n    Include /etc/ssh/ssh_config\n"), r.stdout)
        XCTAssertFalse(r.stdout.contains("pw-not-printed"))
    }
}
