// `hostbook ssh` to a password host: a test account made with useradd + chpasswd, an sshd
// with PasswordAuthentication yes and UsePAM no (sshd checks /etc/shadow itself), and the
// password answered from the vault through SSH_ASKPASS, once.
import Foundation
import TestSupport
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
        XCTAssertFalse(r.stderr.contains("hostbook:"), r.stderr)

        // A wrong stored password: one attempt, then ssh gives up (no second prompt answered).
        try bed.fx.ok("edit", "pw", "--password-stdin", stdin: "wrong password")
        let wrong = try bed.ssh(["pw", "echo must-not-run"])
        XCTAssertEqual(wrong.status, 255, wrong.stderr)
        XCTAssertEqual(wrong.stdout, "")
        // ssh says only "Permission denied (password)"; hostbook, which gave it the stored
        // password, says which one and how to store the right one.
        XCTAssertTrue(wrong.stderr.contains("Permission denied"), wrong.stderr)
        XCTAssertTrue(wrong.stderr.hasSuffix("hostbook: ssh failed after hostbook gave it the stored password of 'pw'; if ssh said 'Permission denied', that password is wrong\n"
                                             + "Store the right one with 'hostbook edit pw --password-stdin'.\n"), wrong.stderr)
        // One attempt, counted in sshd's log: no second prompt left waiting for an answer.
        XCTAssertEqual(sshd.log.components(separatedBy: "Failed password for \(Self.user)").count - 1, 1, sshd.log)
        try bed.assertNothingLeft()
    }

    /// `hostbook ssh pw -l USER` (ssh's options after HOST): ssh logs in as USER, and hostbook,
    /// which reads those options as ssh does, answers the stored password for the saved user
    /// only. Before, hostbook planned for the user before HOST and ssh used the one after it.
    func testAUserAfterHostIsTheOneTheStoredPasswordIsAnsweredFor() throws {
        let password = "s3cret-\(UUID().uuidString)"
        let removeAccount = try makeAccount(password: password)
        defer { removeAccount() }
        let bed = try SSHTestBed()
        let sshd = try PrivateSSHD(config: ["PasswordAuthentication yes"])
        try bed.fx.ok("add", "pw", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", Self.user, "--password-stdin",
                      stdin: password)
        try bed.trust(sshd)
        // Another user before HOST, the saved one after it: ssh logs in as the saved user,
        // and gets its stored password.
        for args in [["-l", "nosuchuser", "pw", "-l", Self.user], ["nosuchuser@pw", "-o", "User=\(Self.user)"],
                     ["--user", "nosuchuser", "pw", "-v", "-oUSER=\(Self.user)"]] {
            let r = try bed.ssh(args + ["echo in as $(id -un)"])
            XCTAssertEqual(r.status, 0, "\(args): " + r.stderr + sshd.log)
            XCTAssertEqual(r.stdout, "in as \(Self.user)\n", "\(args)")
        }
        XCTAssertEqual(sshd.log.components(separatedBy: "Accepted password for \(Self.user)").count - 1, 3, sshd.log)
        XCTAssertFalse(sshd.log.contains("nosuchuser"), sshd.log)
        // Another user after HOST: the saved user's password is not given for it (ssh
        // would ask on a terminal; here there is none), and hostbook does not claim it was.
        let other = try bed.ssh(["pw", "-l", "nosuchuser", "echo must-not-run"])
        XCTAssertEqual(other.status, 255, other.stderr)
        XCTAssertEqual(other.stdout, "")
        XCTAssertFalse(other.stderr.contains("stored password"), other.stderr)
        XCTAssertFalse(sshd.log.contains("Failed password for \(Self.user)"), sshd.log)
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
            let r = try bed.fx.run([prompt], bytes: nil, environment: env)
            XCTAssertEqual(r.status, 1, prompt)
            XCTAssertEqual(r.stdout, "", prompt)
        }
    }

    /// ssh's password prompt has no port: a jump host and a target on the same address and
    /// user show the same prompt. Each password goes to the hop whose ssh asks, told by the
    /// process tree: here the two servers know different passwords for the same user.
    func testJumpHostAndTargetOnTheSameAddressAndUserEachGetTheirOwnPassword() throws {
        let bed = try SSHTestBed()
        guard let account = bed.fx.account else { throw XCTSkip("needs root, to give one user two passwords (as CI runs)") }
        let jumpPassword = "jump-\(UUID().uuidString)", targetPassword = "target-\(UUID().uuidString)"
        // The account's password is the jump host's; the target's server sees a copy of
        // /etc/shadow in which the account's hash is the target password's (made by openssl).
        let set = try ToolProcess.run(URL(fileURLWithPath: "/usr/sbin/chpasswd"), [], stdin: Data("\(account.name):\(jumpPassword)\n".utf8))
        XCTAssertEqual(set.status, 0, set.stderr)
        let hashed = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/openssl"), ["passwd", "-6", "-stdin"], stdin: Data(targetPassword.utf8))
        XCTAssertEqual(hashed.status, 0, hashed.stderr)
        let targetHash = hashed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let rootFolder = try TemporaryDirectory(rootOnly: true)
        let shadow = rootFolder.file("shadow")
        var replaced = 0
        let lines = try String(contentsOfFile: "/etc/shadow", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var fields = line.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard fields.first == account.name, fields.count > 2 else { return String(line) }
            replaced += 1
            fields[1] = targetHash
            return fields.joined(separator: ":")
        }
        XCTAssertEqual(replaced, 1)
        XCTAssertTrue(FileManager.default.createFile(atPath: shadow, contents: Data(lines.joined(separator: "\n").utf8),
                                                    attributes: [.posixPermissions: 0o600]))
        let jump = try PrivateSSHD(config: ["PasswordAuthentication yes"])
        let target = try PrivateSSHD(config: ["PasswordAuthentication yes"], shadow: shadow)
        try bed.fx.ok("add", "gate", "--hostname", "127.0.0.1", "--port", String(jump.port), "--user", account.name, "--password-stdin",
                      stdin: jumpPassword)
        try bed.fx.ok("add", "inner", "--hostname", "127.0.0.1", "--port", String(target.port), "--user", account.name, "--jump", "gate",
                      "--password-stdin", stdin: targetPassword)
        try bed.trust(jump)
        try bed.trust(target)
        let r = try bed.ssh(["inner", "echo in as $(id -un)"])
        XCTAssertEqual(r.status, 0, r.stderr + jump.log + target.log)
        XCTAssertEqual(r.stdout, "in as \(account.name)\n")
        XCTAssertTrue(jump.log.contains("Accepted password for \(account.name)"), jump.log)
        XCTAssertTrue(target.log.contains("Accepted password for \(account.name)"), target.log)
        XCTAssertFalse(jump.log.contains("Failed password"), "the jump host was given another hop's password: " + jump.log)
        XCTAssertFalse(target.log.contains("Failed password"), target.log)
        try bed.assertNothingLeft()
    }
}
