// `hostbook ssh USER@NAME` and `hostbook ssh -l USER NAME`: the saved host is found by NAME
// and USER replaces its saved user for that connection only, as ssh reads its destination;
// the jump hosts keep their own users. Real logins against private sshds. The plan itself
// (--print-config) and the refusals run in-process: HostbookLogicTests/SSHLoginUserLogicTests.
import Foundation
import TestSupport
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
}
