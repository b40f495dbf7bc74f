// A token key logs in end to end: a SoftHSM2 token made for the test's account
// (SoftHSMToken), its keys recorded with `keys import-token`, and `hostbook ssh` to a
// private sshd whose session agent signs on the token with the PIN asked through
// SSH_ASKPASS, else on the terminal; a PIN the token refuses fails the login and says why
// on stderr.
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class TokenLoginTests: XCTestCase {
    override func setUpWithError() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
        try SoftHSMToken.require()
    }

    func testATokenKeyLogsInThroughHostbookSSHWithThePINAskedThroughAskpass() throws {
        let bed = try SSHTestBed()
        try SoftHSMToken.make(for: bed.fx)
        let imported = try bed.fx.run(["keys", "import-token", SoftHSMToken.module, "--label", "hb", "--name", "tok-"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let publicLine = try bed.fx.run(["keys", "public", "tok-k2"])
        XCTAssertEqual(publicLine.status, 0, publicLine.stderr)
        let sshd = try PrivateSSHD(authorizedKeys: [publicLine.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
        defer { sshd.stop() }
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "tok-k2")
        try bed.trust(sshd)

        let answer = bed.fx.dir.file("pin")
        let askpass = bed.fx.dir.file("askpass.sh")
        try Data("#!/bin/sh\ncat \"\(answer)\"\n".utf8).write(to: URL(fileURLWithPath: askpass))
        chmod(askpass, 0o755)

        try Data("0000\n".utf8).write(to: URL(fileURLWithPath: answer))
        chmod(answer, 0o644)
        let refused = try bed.fx.run(["ssh", "web", "-o", "BatchMode=yes", "echo reached"], bytes: nil, environment: ["SSH_ASKPASS": askpass])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("hostbook: the token refused the PIN"), refused.stderr)

        try Data("\(SoftHSMToken.pin)\n".utf8).write(to: URL(fileURLWithPath: answer))
        let session = try bed.fx.run(["ssh", "web", "echo reached"], bytes: nil, environment: ["SSH_ASKPASS": askpass])
        XCTAssertEqual(session.status, 0, session.stderr + sshd.log)
        XCTAssertEqual(session.stdout, "reached\n")
        XCTAssertTrue(sshd.log.contains("Accepted publickey for root from 127.0.0.1") && sshd.log.contains("ECDSA"), sshd.log)

        // No askpass: the PIN is asked on the terminal.
        if ScriptedTerminal.available {
            let t = try ScriptedTerminal(["--db", bed.fx.db, "ssh", "web", "echo reached"], fixture: bed.fx)
            t.expect("Enter the PIN of the token 'hb' for the key 'tok-k2':")
            t.send(SoftHSMToken.pin)
            t.expect("reached")
            XCTAssertEqual(t.finish(), 0, t.transcript)
        }
    }
}
