// A user certificate through hostbook's agents, end to end: a key imported with the
// certificate ssh-keygen -s made beside it logs in to a private sshd that trusts only the
// CA (TrustedUserCAKeys, AuthorizedPrincipalsFile, no authorized_keys), through `hostbook
// ssh` and through plain ssh with the installed configuration and the standing agent; an
// expired certificate and one for another principal do not, and a certificate of another
// key is refused (exit 5). Real ssh-keygen, ssh, sshd and the real binary, as the
// unprivileged test account; one sshd for the whole test.
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class UserCertificateLoginTests: XCTestCase {
    func testACertificateLogsInWhereOnlyTheCATrustedAndAnExpiredOrForeignOneDoesNot() throws {
        let bed = try SSHTestBed()
        let fx = bed.fx
        let ca = fx.dir.file("ca"), key = fx.dir.file("k-key"), principals = fx.dir.file("principals")
        for path in [ca, key] {
            XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", "k", "-f", path]).status, 0)
        }
        // ssh-keygen -s names the certificate of NAME.pub NAME-cert.pub.
        func certificate(_ name: String, principal: String, validity: String) throws -> String {
            let pub = fx.dir.file(name + ".pub")
            if pub != key + ".pub" { try FileManager.default.copyItem(atPath: key + ".pub", toPath: pub) }
            let made = try ToolProcess.sshKeygen(["-q", "-s", ca, "-I", "\(name)-id", "-n", principal, "-V", validity, "-z", "7", pub])
            XCTAssertEqual(made.status, 0, made.stderr)
            return fx.dir.file(name + "-cert.pub")
        }
        _ = try certificate("k-key", principal: "alice", validity: "-5m:+1h")
        try Data("alice\n".utf8).write(to: URL(fileURLWithPath: principals))
        chmod(principals, 0o644)
        chmod(ca + ".pub", 0o644)

        // keys import takes k-key-cert.pub beside the key.
        let imported = try fx.ok("keys", "import", key, "--name", "k")
        XCTAssertTrue(imported.stdout.contains("Attached its certificate: user certificate, key id \"k-key-id\", serial 7, principals alice"),
                      imported.stdout)
        let shown = try XCTUnwrap(try fx.json("keys", "show", "k") as? [String: Any])
        let attached = try XCTUnwrap(shown["certificate"] as? [String: Any])
        XCTAssertEqual(attached["key_id"] as? String, "k-key-id")
        XCTAssertEqual(attached["principals"] as? [String], ["alice"])
        XCTAssertEqual(attached["valid_now"] as? Bool, true)
        let caFingerprint = try ToolProcess.sshKeygen(["-l", "-f", ca + ".pub"]).stdout.split(separator: " ")[1]
        XCTAssertEqual(attached["ca_fingerprint"] as? String, String(caFingerprint), "the CA's fingerprint as ssh-keygen -l prints it")

        let sshd = try PrivateSSHD(config: ["AuthorizedKeysFile none", "TrustedUserCAKeys \(ca).pub", "AuthorizedPrincipalsFile \(principals)"])
        defer { sshd.stop() }
        try fx.ok("add", "dev", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k")
        try bed.trust(sshd)
        let userConfig = bed.home + "/.ssh/config"
        try Data("# mine\n".utf8).write(to: URL(fileURLWithPath: userConfig))
        chmod(userConfig, 0o644)
        try fx.ok("ssh-config", "--install")
        XCTAssertEqual(try fx.run(["agent", "start"]).status, 0)
        defer { _ = try? fx.run(["agent", "stop"]) }
        func plainSSH() throws -> Shell.Result {
            var env = fx.environment
            env["CFG"] = userConfig
            return try Shell.run("unset SSH_AUTH_SOCK; exec ssh -F \"$CFG\" -o BatchMode=yes dev echo reached", environment: env, account: fx.account)
        }

        // A valid certificate: both ways in, by the certificate (no authorized_keys exists).
        let session = try bed.ssh(["dev", "echo", "reached"])
        XCTAssertEqual(session.status, 0, session.stderr + sshd.log)
        XCTAssertEqual(session.stdout, "reached\n")
        let plain = try plainSSH()
        XCTAssertEqual(plain.status, 0, plain.stderr + sshd.log)
        XCTAssertEqual(plain.stdout, "reached\n")
        XCTAssertTrue(sshd.waitForLog("Accepted publickey", count: 2))
        XCTAssertEqual(sshd.log.components(separatedBy: "ED25519-CERT").count - 1 >= 2, true, sshd.log)
        // The standing agent's log names the certificate it signed for.
        let log = try XCTUnwrap(try fx.json("agent", "log") as? [[String: Any]])
        XCTAssertTrue(log.contains { $0["outcome"] as? String == "signed" && $0["certificate"] as? String == "key id \"k-key-id\", serial 7" },
                      "\(log)")

        // Expired, and for another principal: attached (with a warning), and refused by sshd.
        for (name, principal, validity) in [("expired", "alice", "20200101:20200102"), ("mallory", "mallory", "-5m:+1h")] {
            let file = try certificate(name, principal: principal, validity: validity)
            let added = try fx.run(["keys", "cert", "add", "k", file])
            XCTAssertEqual(added.status, 0, added.stderr)
            XCTAssertEqual(added.stderr.contains("warning: the certificate is expired"), name == "expired", added.stderr)
            let refused = try bed.ssh(["dev", "echo", "reached"])
            XCTAssertEqual(refused.status, 255, "\(name): " + refused.stdout + refused.stderr)
            let refusedPlain = try plainSSH()
            XCTAssertEqual(refusedPlain.status, 255, "\(name): " + refusedPlain.stdout + refusedPlain.stderr)
            XCTAssertEqual(refusedPlain.stdout, "")
        }

        // The installed configuration's certificate file follows each `keys cert add`.
        let keysFolder = bed.home + "/.config/hostbook/keys"
        func installedCertificates() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: keysFolder).filter { $0.hasSuffix(".cert.pub") }
                .map { try String(contentsOfFile: keysFolder + "/" + $0, encoding: .utf8) }
        }
        let mallory = try String(contentsOfFile: fx.dir.file("mallory-cert.pub"), encoding: .utf8).split(separator: " ")[1]
        XCTAssertEqual(try installedCertificates().map { $0.split(separator: " ")[1] }, [mallory])

        // A certificate of another key: exit 5, and the attached one stays.
        let other = fx.dir.file("other")
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-f", other]).status, 0)
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-s", ca, "-I", "other", "-n", "alice", other + ".pub"]).status, 0)
        let wrong = try fx.run(["keys", "cert", "add", "k", other + "-cert.pub"])
        XCTAssertEqual(wrong.status, 5, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("certifies the key SHA256:"), wrong.stderr)
        XCTAssertEqual(wrong.stderr.split(separator: "\n").count, 2, "one line and its hint: \(wrong.stderr)")
        let after = try XCTUnwrap(try fx.json("keys", "show", "k") as? [String: Any])
        XCTAssertEqual((after["certificate"] as? [String: Any])?["key_id"] as? String, "mallory-id")

        // Detached: the key alone is what the agents offer, and the key list is as before.
        try fx.ok("keys", "cert", "remove", "k")
        XCTAssertFalse(try fx.ok("keys", "list").stdout.contains("CERTIFICATE"))
        XCTAssertEqual(try installedCertificates(), [], "the installed certificate file goes with it")
        XCTAssertTrue(try String(contentsOfFile: bed.home + "/.config/hostbook/ssh_config", encoding: .utf8).contains("IdentityFile"), "the key stays")
    }
}
