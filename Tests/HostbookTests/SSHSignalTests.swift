// `hostbook ssh` and signals: SIGTERM sent to hostbook reaches ssh, and ssh killed outright
// still leaves no socket, file or process behind; hostbook exits with ssh's status.
import Foundation
import TestSupport
import XCTest

final class SSHSignalTests: XCTestCase {
    override func setUpWithError() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
    }

    /// Starts `hostbook ssh web 'sleep 60'` and returns once the login is accepted.
    func startLongSession(_ bed: SSHTestBed, _ sshd: PrivateSSHD) throws -> Process {
        let p = Process()
        try TestAccount.prepare(p, [HostbookProcess.binaryURL.path, "ssh", "web", "sleep 60"], environment: bed.fx.environment,
                                removing: [], account: bed.fx.account, terminal: nil)
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        XCTAssertTrue(sshd.waitForLog("Accepted publickey"), sshd.log)
        // The remote command runs (sshd logs the session's start), so ssh is in its session.
        XCTAssertTrue(sshd.waitForLog("Starting session: command"), sshd.log)
        return p
    }

    func setUpHost() throws -> (SSHTestBed, PrivateSSHD) {
        let bed = try SSHTestBed()
        let pub = try bed.importKey("k")
        let sshd = try PrivateSSHD(authorizedKeys: [pub])
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k")
        try bed.trust(sshd)
        return (bed, sshd)
    }

    func testSIGTERMIsPassedToSSH() throws {
        let (bed, sshd) = try setUpHost()
        let p = try startLongSession(bed, sshd)
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
        // ssh ended on the forwarded SIGTERM: without it, the remote `sleep 60` would end the
        // session normally (status 0), not with ssh's 255 or 143.
        XCTAssertEqual(p.terminationReason, .exit, "hostbook itself exits with ssh's status")
        XCTAssertTrue([255, 143].contains(p.terminationStatus), "status \(p.terminationStatus)")
        try bed.assertNothingLeft()
    }

    /// While a session runs, another process of the same user that finds the agent socket
    /// sees the public key but gets no signature: the connection is not bound to a host.
    func testTheSessionAgentSignsOnlyForBoundConnections() throws {
        let (bed, sshd) = try setUpHost()
        let p = try startLongSession(bed, sshd)
        defer { kill(p.processIdentifier, SIGTERM); p.waitUntilExit() }
        let folder = bed.runtime + "/hostbook"
        let sockets = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("ssh-") }
        XCTAssertEqual(sockets.count, 1)
        let socket = folder + "/" + sockets[0]
        var info = stat()
        XCTAssertEqual(stat(socket, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        XCTAssertEqual(stat(folder, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        let listed = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/ssh-add"), ["-L"], environment: ["SSH_AUTH_SOCK": socket])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let pub = bed.fx.dir.file("k.pub")
        try Data(listed.stdout.utf8).write(to: URL(fileURLWithPath: pub))
        let signed = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/ssh-add"), ["-T", pub], environment: ["SSH_AUTH_SOCK": socket])
        XCTAssertNotEqual(signed.status, 0, "an unbound connection got a signature")
    }

    func testSSHKilledLeavesNothingBehind() throws {
        let (bed, sshd) = try setUpHost()
        let p = try startLongSession(bed, sshd)
        let children = try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && Int32(fields[1]) == p.processIdentifier && stat.contains("(ssh)")
        }
        XCTAssertEqual(children.count, 1, "hostbook runs ssh as its child")
        for child in children { kill(child, SIGKILL) }
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 128 + SIGKILL)
        try bed.assertNothingLeft()
    }
}
