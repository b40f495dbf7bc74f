// `hostbook ssh` answers ssh's KnownHostsCommand for the host keys the trust core accepts
// with a /bin/sh script in the session folder (SSHKnownHostsScript), not with a hostbook
// process per hop (issue 22, goal 1); every other key still goes to `hostbook known-hosts
// lookup`, so a changed or revoked key ends exactly as before. Real ssh against a private
// sshd; ssh's own -vvv log says which command it ran.
import Foundation
import TestSupport
import XCTest

final class SSHKnownHostsScriptTests: XCTestCase {
    override func setUpWithError() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
    }

    func testATrustedKeyIsAnsweredByTheSessionsScript() throws {
        let bed = try SSHTestBed()
        let pub = try bed.importKey("k")
        let sshd = try PrivateSSHD(authorizedKeys: [pub])
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k")
        try bed.trust(sshd)
        let r = try bed.ssh(["web", "-vvv", "echo reached"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "reached\n")
        // One KnownHostsCommand run (no ORDER run: HostKeyAlgorithms), and it is the script.
        let executed = r.stderr.split(separator: "\n").filter { $0.contains("subprocess: KnownHostsCommand-") && $0.contains(" command ") }
        XCTAssertEqual(executed.count, 1, r.stderr)
        XCTAssertTrue(executed.first?.contains("KnownHostsCommand-HOSTNAME command \"/bin/sh ") == true, "\(executed)")
        XCTAssertTrue(executed.first?.contains("-known-hosts.sh HOSTNAME [127.0.0.1]:\(sshd.port) 127.0.0.1 \(sshd.port) ssh-ed25519 ") == true, "\(executed)")
        // The script's answer is the trusted key (ssh may find it first in the hop's
        // rotation file, which holds the same trusted rows: SSHHostKeyRotation).
        XCTAssertTrue(r.stderr.contains("found key type ED25519 in file KnownHostsCommand-HOSTNAME:1"), r.stderr)
        try bed.assertNothingLeft()
    }

    /// The key also revoked (a pattern's `@revoked` line): not in the script, so the trust
    /// core refuses it through ssh as before.
    func testARevokedKeyIsStillRefused() throws {
        let bed = try SSHTestBed()
        let pub = try bed.importKey("k")
        let sshd = try PrivateSSHD(authorizedKeys: [pub])
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k")
        try bed.trust(sshd)
        let file = bed.fx.dir.file("revoked")
        try "@revoked * \(try sshd.publicKeyTypeAndBlob())\n".write(toFile: file, atomically: true, encoding: .utf8)
        try bed.fx.ok("known-hosts", "import", file)
        let r = try bed.ssh(["web", "echo must-not-run"])
        XCTAssertEqual(r.status, 255, r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("REVOKED HOST KEY DETECTED"), r.stderr)
        try bed.assertNothingLeft()
    }

    /// A key other than the trusted one: the script hands the question to hostbook, whose
    /// answer (the stored key) makes ssh refuse with its changed-key warning, as before.
    func testAChangedKeyIsDecidedByHostbook() throws {
        let bed = try SSHTestBed()
        let pub = try bed.importKey("k")
        let sshd = try PrivateSSHD(authorizedKeys: [pub])
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k")
        let other = try TemporaryDirectory()
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-f", other.file("k")]).status, 0)
        let otherKey = try String(contentsOfFile: other.file("k.pub"), encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        try bed.fx.ok("known-hosts", "approve", "127.0.0.1", "--port", String(sshd.port), "--key", otherKey, "--yes")
        let r = try bed.ssh(["web", "-vvv", "echo must-not-run"])
        XCTAssertEqual(r.status, 255)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("KnownHostsCommand-HOSTNAME command \"/bin/sh "), r.stderr)
        XCTAssertTrue(r.stderr.contains("REMOTE HOST IDENTIFICATION HAS CHANGED"), r.stderr)
        XCTAssertTrue(r.stderr.contains("Host key verification failed."), r.stderr)
        try bed.assertNothingLeft()
    }
}
