// `hostbook keys deploy KEY HOST` end to end: a real sshd that takes passwords and reads
// each user's own ~/.ssh/authorized_keys, the fixture's account logging in with its real
// password (stored in the vault, answered through SSH_ASKPASS), then with the key alone.
import Foundation
import TestSupport
import XCTest

final class KeysDeployTests: XCTestCase {
    override func setUpWithError() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
    }

    /// The sshd: passwords accepted, keys read from the user's ~/.ssh/authorized_keys (the
    /// first AuthorizedKeysFile wins over PrivateSSHD's own).
    func passwordServer() throws -> PrivateSSHD {
        try PrivateSSHD(config: ["PasswordAuthentication yes", "AuthorizedKeysFile .ssh/authorized_keys"])
    }

    /// SSHTestBed makes ~/.ssh as root; on the "server" it is the account's own.
    func handOver(_ bed: SSHTestBed, _ account: TestAccount) {
        chown(bed.home + "/.ssh", account.uid, account.gid)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: bed.home + "/.ssh")) ?? [] {
            chown(bed.home + "/.ssh/" + name, account.uid, account.gid)
        }
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    func json(_ r: HostbookResult) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
    }

    func testDeployInstallsTheKeyVerifiesItAndSwitchesTheHost() throws {
        let bed = try SSHTestBed()
        guard let account = bed.fx.account else { throw XCTSkip("a password login needs the test account (tests run as root in CI)") }
        // A comment with characters a shell would read: written byte for byte.
        let comment = "deploy \"$HOME\" `id` %s \\ 'q' é!"
        let keyFile = bed.fx.dir.file("deploy-key")
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", keyFile]).status, 0)
        try bed.fx.ok("keys", "import", keyFile, "--name", "deploy")
        try FileManager.default.removeItem(atPath: keyFile)
        let pub = try String(contentsOfFile: keyFile + ".pub", encoding: .utf8)
        // No ~/.ssh on the server side yet: it is made 0700, the file 0600.
        try FileManager.default.removeItem(atPath: bed.home + "/.ssh")
        let sshd = try passwordServer()
        try bed.fx.ok("add", "pw", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", account.name,
                      "--password-stdin", stdin: account.password)
        try bed.trust(sshd)

        let r = try bed.fx.run(["keys", "deploy", "deploy", "pw"])
        XCTAssertEqual(r.status, 0, r.stderr + sshd.log)
        XCTAssertEqual(r.stdout, """
            Added the key 'deploy' to ~/.ssh/authorized_keys on \(account.name)@127.0.0.1:\(sshd.port).
            A login with it works; host 'pw' now uses the key 'deploy' and its stored password was deleted.

            """)
        let authorized = bed.home + "/.ssh/authorized_keys"
        XCTAssertEqual(try String(contentsOfFile: authorized, encoding: .utf8), pub)
        XCTAssertEqual(try mode(bed.home + "/.ssh"), 0o700)
        XCTAssertEqual(try mode(authorized), 0o600)
        // One password login (the install), then one key login (the check).
        XCTAssertEqual(sshd.log.components(separatedBy: "Accepted password for \(account.name)").count - 1, 1, sshd.log)
        XCTAssertEqual(sshd.log.components(separatedBy: "Accepted publickey for \(account.name)").count - 1, 1, sshd.log)
        let shown = try json(try bed.fx.ok("show", "pw", "--json"))
        XCTAssertEqual(shown["key"] as? String, "deploy")
        XCTAssertEqual(shown["auth"] as? String, "key")
        // The password is gone from the vault: the vault check finds no leftover item.
        let doctor = try bed.fx.run(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("Vault: 1 item, each owned by a host or key"), doctor.stdout + doctor.stderr)
        XCTAssertFalse((doctor.stdout + doctor.stderr).contains("holds a password"), doctor.stdout + doctor.stderr)

        // Again: the key is there already and is not added twice; the key login installs it.
        let again = try bed.fx.run(["keys", "deploy", "deploy", "pw", "--json"])
        XCTAssertEqual(again.status, 0, again.stderr + sshd.log)
        let report = try json(again)
        XCTAssertEqual(report["added"] as? Bool, false)
        XCTAssertEqual(report["verified"] as? Bool, true)
        XCTAssertEqual(try String(contentsOfFile: authorized, encoding: .utf8), pub)
        // And hostbook ssh logs in with it.
        let ssh = try bed.ssh(["pw", "echo in as $(id -un)"])
        XCTAssertEqual(ssh.status, 0, ssh.stderr + sshd.log)
        XCTAssertEqual(ssh.stdout, "in as \(account.name)\n")
        XCTAssertFalse(bed.fx.dir.path.isEmpty)
        // No private key file was written anywhere in the fixture.
        for case let name as String in FileManager.default.enumerator(atPath: bed.fx.dir.path)! {
            let text = String(decoding: FileManager.default.contents(atPath: bed.fx.dir.file(name)) ?? Data(), as: UTF8.self)
            XCTAssertFalse(text.contains("PRIVATE KEY"), name)
        }
    }

    func testKeepPasswordAndAFileWithoutATrailingNewline() throws {
        let bed = try SSHTestBed()
        guard let account = bed.fx.account else { throw XCTSkip("a password login needs the test account (tests run as root in CI)") }
        let pub = try bed.importKey("second")
        let other = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl other"
        let authorized = bed.home + "/.ssh/authorized_keys"
        try Data(other.utf8).write(to: URL(fileURLWithPath: authorized))
        handOver(bed, account)
        chmod(authorized, 0o640)
        let sshd = try passwordServer()
        try bed.fx.ok("add", "pw", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", account.name,
                      "--password-stdin", stdin: account.password)
        try bed.trust(sshd)
        let r = try bed.fx.run(["keys", "deploy", "second", "pw", "--keep-password"])
        XCTAssertEqual(r.status, 0, r.stderr + sshd.log)
        XCTAssertTrue(r.stdout.hasSuffix("now uses the key 'second' (its stored password is kept).\n"), r.stdout)
        XCTAssertEqual(try String(contentsOfFile: authorized, encoding: .utf8), other + "\n" + pub + "\n")
        // An existing file keeps its mode.
        XCTAssertEqual(try mode(authorized), 0o640)
        let shown = try json(try bed.fx.ok("show", "pw", "--json"))
        XCTAssertEqual(shown["key"] as? String, "second")
        XCTAssertEqual(shown["auth"] as? String, "password")
        // The password is still stored and answered: with the key removed from the server,
        // hostbook ssh falls back to it.
        try Data((other + "\n").utf8).write(to: URL(fileURLWithPath: authorized))
        let ssh = try bed.ssh(["pw", "echo in"])
        XCTAssertEqual(ssh.status, 0, ssh.stderr + sshd.log)
        XCTAssertEqual(ssh.stdout, "in\n")
    }

    func testAWrongPasswordOrAKeyTheServerIgnoresChangesNothing() throws {
        let bed = try SSHTestBed()
        guard let account = bed.fx.account else { throw XCTSkip("a password login needs the test account (tests run as root in CI)") }
        try bed.importKey("k")
        handOver(bed, account)
        let sshd = try passwordServer()
        try bed.fx.ok("add", "pw", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", account.name,
                      "--password-stdin", stdin: "not the password")
        try bed.trust(sshd)
        let wrong = try bed.fx.run(["keys", "deploy", "k", "pw"])
        XCTAssertEqual(wrong.status, 1, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("hostbook: could not log in to 'pw' (\(account.name)@127.0.0.1:\(sshd.port)) to install the key; nothing was changed\n"), wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("'hostbook edit pw --password-stdin'"), wrong.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: bed.home + "/.ssh/authorized_keys"))
        XCTAssertEqual(try json(try bed.fx.ok("show", "pw", "--json"))["auth"] as? String, "password")

        // A server that reads no user's authorized_keys: installed, but the key login fails,
        // and the host keeps its password.
        let deaf = try PrivateSSHD(config: ["PasswordAuthentication yes"])
        try bed.fx.ok("add", "deaf", "--hostname", "127.0.0.1", "--port", String(deaf.port), "--user", account.name,
                      "--password-stdin", stdin: account.password)
        try bed.trust(deaf)
        let unverified = try bed.fx.run(["keys", "deploy", "k", "deaf"])
        XCTAssertEqual(unverified.status, 1, unverified.stderr + deaf.log)
        XCTAssertTrue(unverified.stderr.contains("but a login with it failed; the host was not changed\n"), unverified.stderr)
        let shown = try json(try bed.fx.ok("show", "deaf", "--json"))
        XCTAssertEqual(shown["auth"] as? String, "password")
        XCTAssertTrue(shown["key"] == nil || shown["key"] is NSNull, "\(shown)")
        XCTAssertEqual(try bed.fx.run(["keys", "deploy", "k", "nosuch"]).status, 4)
        XCTAssertEqual(try bed.fx.run(["keys", "deploy", "nosuch", "deaf"]).status, 4)
    }
}
