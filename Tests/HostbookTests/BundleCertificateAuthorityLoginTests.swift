// A certificate authority through a team bundle, end to end (issue 30): the publisher's CA
// signs a host certificate for a private sshd (which trusts only the CA for users:
// TrustedUserCAKeys, AuthorizedPrincipalsFile, no authorized_keys) and the member's user
// certificate, and the publisher exports with --ca. The member, a second ordinary account,
// subscribes: a CA line outside the scope it granted is reported and changes nothing, and a
// certificate for a key it does not have is ignored. An update with the CA scoped to the
// bundle's host then lets the member log in through `hostbook ssh` with its own key's
// certificate, to the host presenting the host certificate, with no prompt. After the CA
// revokes the host certificate, the next update makes it revoked (exit 12).
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

extension BundleTests {
    func testAMemberLogsInWithTheBundlesCertificatesAndNoPrompt() throws {
        try fx.ok("keys", "generate", "signer")
        try startAgent()
        let signerLine = try publicLine("signer")
        let caLine = try fx.ok("ca", "create", "team").stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        // The member: a second ordinary account, its key and its public line for the CA.
        let member = try HostbookFixture()
        @discardableResult
        func onM(_ args: String...) throws -> HostbookResult { try member.run(args) }
        XCTAssertEqual(try onM("keys", "generate", "member").status, 0)
        let shown = try JSONSerialization.jsonObject(with: try onM("keys", "show", "member", "--json").stdoutBytes) as? [String: Any] ?? [:]
        let memberPublic = fx.dir.file("member.pub")
        try Data(((shown["public_key"] as? String ?? "") + "\n").utf8).write(to: URL(fileURLWithPath: memberPublic))
        chmod(memberPublic, 0o644)

        // The server: a host key of root's, its certificate by the CA; users by the CA alone.
        let serverKeys = try TemporaryDirectory(rootOnly: true)
        let hostKey = serverKeys.file("host_ed25519")
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-f", hostKey]).status, 0)
        let hostPublic = fx.dir.file("host.pub"), hostCertificate = fx.dir.file("host-cert.pub")
        try FileManager.default.copyItem(atPath: hostKey + ".pub", toPath: hostPublic)
        chmod(hostPublic, 0o644)
        try fx.ok("ca", "sign", "team", "--host", "--public-key", hostPublic, "--identity", "srv", "--principal", "127.0.0.1",
                  "--valid", "1h", "--output", hostCertificate)
        try fx.ok("ca", "sign", "team", "--public-key", memberPublic, "--identity", "member", "--principal", "team-member", "--valid", "1h")
        try fx.ok("ca", "sign", "team", "--key", "signer", "--identity", "not-the-members", "--principal", "team-member", "--valid", "1h")
        let caFile = fx.dir.file("ca.pub"), principals = fx.dir.file("principals")
        try Data((caLine + "\n").utf8).write(to: URL(fileURLWithPath: caFile))
        try Data("team-member\n".utf8).write(to: URL(fileURLWithPath: principals))
        chmod(caFile, 0o644)
        chmod(principals, 0o644)
        let sshd = try PrivateSSHD(hostKeyTypes: [], config: ["HostKey \(hostKey)", "HostCertificate \(hostCertificate)", "AuthorizedKeysFile none",
                                                              "TrustedUserCAKeys \(caFile)", "AuthorizedPrincipalsFile \(principals)"])
        defer { sshd.stop() }
        let port = String(sshd.port)
        try fx.ok("add", "srv", "--hostname", "127.0.0.1", "--port", port, "--user", "root", "--tag", "team")

        // The bundle's repository is the member's own (git refuses another user's); each
        // export is copied in and committed there, as a push would.
        let repo = (member.account?.home ?? member.dir.file("home")) + "/team"
        var gitEnvironment = member.environment
        for (k, v) in ["GIT_AUTHOR_NAME": "P", "GIT_AUTHOR_EMAIL": "p@example.com", "GIT_COMMITTER_NAME": "P", "GIT_COMMITTER_EMAIL": "p@example.com", "R": repo] {
            gitEnvironment[k] = v
        }
        func publish(_ args: [String]) throws {
            let out = try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "--ca", "team", "-o", fx.dir.file("pub")] + args)
            XCTAssertEqual(out.status, 0, out.stderr)
            let first = !FileManager.default.fileExists(atPath: repo)
            if first { try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true) }
            for name in ["bundle.txt", "bundle.txt.sig"] {
                let target = repo + "/" + name
                try? FileManager.default.removeItem(atPath: target)
                try FileManager.default.copyItem(atPath: fx.dir.file("pub/" + name), toPath: target)
                chmod(target, 0o644)
                if let account = member.account { chown(target, account.uid, account.gid) }
            }
            if let account = member.account { chown(repo, account.uid, account.gid) }
            let git = try Shell.run((first ? "git init -q \"$R\" && " : "") + "cd \"$R\" && git add -A && git commit -q -m bundle",
                                    environment: gitEnvironment, account: member.account)
            XCTAssertEqual(git.status, 0, git.stderr)
        }
        let presented = try String(contentsOfFile: hostCertificate, encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        func check() throws -> HostbookResult { try onM("known-hosts", "check", "127.0.0.1", "--port", port, "--key", presented) }

        // Serial 1: the CA for a scope the member did not grant; its certificates.
        try publish(["--ca-scope", "*.corp.example"])
        XCTAssertTrue(try String(contentsOfFile: repo + "/bundle.txt", encoding: .utf8).contains("\nkrl \""))
        XCTAssertEqual(try onM("bundle", "trust", "team", "--signer", signerLine).status, 0)
        let subscribed = try onM("--no-input", "bundle", "subscribe", "team", repo)
        XCTAssertEqual(subscribed.status, 0, subscribed.stderr)
        XCTAssertTrue(subscribed.stdout.contains("not applied: host-key line '@cert-authority *.corp.example "), subscribed.stdout)
        XCTAssertTrue(subscribed.stdout.contains("certificate attached to key 'member': serial 2, key id \"member\""), subscribed.stdout)
        XCTAssertTrue(subscribed.stdout.contains("1 certificate is for keys you do not have: ignored"), subscribed.stdout)
        XCTAssertEqual(try check().status, 10, "the CA line outside the scope changed nothing")
        let keys = try JSONSerialization.jsonObject(with: try onM("keys", "list", "--json").stdoutBytes) as? [[String: Any]] ?? []
        XCTAssertEqual(keys.map { $0["name"] as? String ?? "" }, ["member"], "no key came with the certificate of another key")
        XCTAssertEqual(((keys.first?["certificate"] as? [String: Any])?["principals"] as? [String]), ["team-member"])

        // Serial 2: the CA for the bundle's own host. The member logs in with no prompt.
        try publish(["--allow-removals"])
        let update = try onM("--no-input", "bundle", "update")
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertTrue(update.stdout.contains("host keys: 1 trusted"), update.stdout)
        let trusted = try check()
        XCTAssertEqual(trusted.status, 0, trusted.stdout + trusted.stderr)
        XCTAssertTrue(trusted.stdout.contains("signed by a trusted certificate authority"), trusted.stdout)
        XCTAssertEqual(try onM("edit", "srv", "--key", "member").status, 0)
        let login = try onM("--no-input", "ssh", "srv", "-o", "HostKeyAlgorithms=ssh-ed25519-cert-v01@openssh.com", "echo", "reached")
        XCTAssertEqual(login.status, 0, login.stderr + sshd.log)
        XCTAssertEqual(login.stdout, "reached\n")
        XCTAssertFalse(login.stderr.contains("?"), "no question: \(login.stderr)")
        XCTAssertTrue(sshd.waitForLog("Accepted publickey for root", count: 1), sshd.log)
        XCTAssertTrue(sshd.log.contains("ED25519-CERT"), "by the certificate: \(sshd.log)")

        // The CA revokes the host certificate (serial 1): after the next update it is revoked.
        try fx.ok("ca", "revoke", "team", "--serial", "1")
        try publish([])
        XCTAssertEqual(try onM("--no-input", "bundle", "update").status, 0)
        let revoked = try check()
        XCTAssertEqual(revoked.status, 12, revoked.stdout + revoked.stderr)
        XCTAssertTrue(revoked.stdout.contains("revoked by the revocation list of bundle 'team'"), revoked.stdout)
        let refused = try onM("--no-input", "ssh", "srv", "-o", "HostKeyAlgorithms=ssh-ed25519-cert-v01@openssh.com", "echo", "reached")
        XCTAssertNotEqual(refused.status, 0, refused.stdout)
        XCTAssertTrue(refused.stderr.contains("is revoked by the revocation list of bundle 'team'"), refused.stderr)
        XCTAssertEqual(sshd.log.components(separatedBy: "Accepted publickey").count - 1, 1, sshd.log)
    }
}
