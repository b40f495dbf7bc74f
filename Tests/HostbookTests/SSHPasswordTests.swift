// `hostbook ssh` to a password host: a test account made with useradd + chpasswd, an sshd
// with PasswordAuthentication yes and UsePAM no (sshd checks /etc/shadow itself), and the
// password answered from the vault through SSH_ASKPASS, once.
import Foundation
import XCTest

final class SSHPasswordTests: XCTestCase {
    static let user = "hbsshpw"

    override func setUpWithError() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/useradd") else {
            throw XCTSkip("creating the test account needs root and useradd (as in CI)")
        }
    }

    /// Creates the account with `password`; removed again by the returned closure.
    func makeAccount(password: String) throws -> () -> Void {
        _ = try ToolProcess.run(URL(fileURLWithPath: "/usr/sbin/userdel"), [Self.user])
        let home = try TemporaryDirectory()
        let add = try ToolProcess.run(URL(fileURLWithPath: "/usr/sbin/useradd"), ["-M", "-d", home.path, "-s", "/bin/sh", Self.user])
        XCTAssertEqual(add.status, 0, add.stderr)
        let set = try ToolProcess.run(URL(fileURLWithPath: "/usr/sbin/chpasswd"), [], stdin: Data("\(Self.user):\(password)\n".utf8))
        XCTAssertEqual(set.status, 0, set.stderr)
        return { _ = try? ToolProcess.run(URL(fileURLWithPath: "/usr/sbin/userdel"), [Self.user]); _ = home }
    }

    func testStoredPasswordLogsInAndAWrongOneFailsAtOnce() throws {
        let password = "s3cret pass&word"
        let removeAccount = try makeAccount(password: password)
        defer { removeAccount() }
        let bed = try SSHTestBed()
        let sshd = try PrivateSSHD(config: ["PasswordAuthentication yes"])
        try bed.fx.ok("add", "pw", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", Self.user, "--password-stdin",
                      stdin: password)
        try bed.trust(sshd)
        let r = try bed.ssh(["pw", "echo in as $(id -un)"])
        XCTAssertEqual(r.status, 0, r.stderr + sshd.log)
        XCTAssertEqual(r.stdout, "in as \(Self.user)\n")
        XCTAssertTrue(sshd.log.contains("Accepted password for \(Self.user)"), sshd.log)

        // A wrong stored password: one attempt, then ssh gives up (no second prompt answered).
        try bed.fx.ok("edit", "pw", "--password-stdin", stdin: "wrong password")
        let started = Date()
        let wrong = try bed.ssh(["pw", "echo must-not-run"])
        XCTAssertEqual(wrong.status, 255, wrong.stderr)
        XCTAssertEqual(wrong.stdout, "")
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)
        XCTAssertEqual(sshd.log.components(separatedBy: "Failed password for \(Self.user)").count - 1, 1, sshd.log)
        try bed.assertNothingLeft()
    }

    /// The helper refuses every prompt it does not own, above all confirmations.
    func testAskpassRefusesPromptsItDoesNotOwn() throws {
        let bed = try SSHTestBed()
        for (prompt, extra) in [("Enter passphrase for key '/x': ", [String: String]()),
                                ("Add key /x (c) to agent?", ["SSH_ASKPASS_PROMPT": "confirm"]),
                                ("root@127.0.0.1's password: ", [:])] {
            var env = bed.fx.environment
            env["HOSTBOOK_ASKPASS_SESSION"] = "0123456789abcdef"
            for (k, v) in extra { env[k] = v }
            let r = try HostbookProcess.run([prompt], environment: env)
            XCTAssertEqual(r.status, 1, prompt)
            XCTAssertEqual(r.stdout, "", prompt)
        }
    }
}
