// The test sshd itself (TestSupport/PrivateSSHD, shared by the in-process and end-to-end
// tests): it starts on loopback, real ssh logs in with a key and runs a command, and stop()
// leaves no process behind. No hostbook runs here. Moved from HostbookTests.
import Foundation
import TestSupport
import XCTest

final class PrivateSSHDTests: XCTestCase {
    func testRealSSHLogsInWithAKeyAndTheServerStopsByPID() throws {
        let client = try TempFolder()
        let key = client.file("id_ed25519")
        XCTAssertEqual(try Tool.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key]).status, 0)
        let publicKey = try String(contentsOfFile: key + ".pub", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let sshd = try PrivateSSHD(authorizedKeys: [publicKey])
        let knownHosts = client.file("known_hosts")
        try Data("[127.0.0.1]:\(sshd.port) \(try sshd.publicKey())\n".utf8).write(to: URL(fileURLWithPath: knownHosts))
        let r = try Tool.run("/usr/bin/ssh", sshd.sshOptions(knownHosts: knownHosts) + ["-o", "StrictHostKeyChecking=yes", "-i", key,
                                                                                         "127.0.0.1", "echo connected; exit 7"])
        XCTAssertEqual(r.status, 7, r.stderr + sshd.log)
        XCTAssertEqual(r.stdout, "connected\n")
        let pid = sshd.pid
        sshd.stop()
        XCTAssertNotEqual(kill(pid, 0), 0, "sshd \(pid) still runs after stop()")
    }
}
