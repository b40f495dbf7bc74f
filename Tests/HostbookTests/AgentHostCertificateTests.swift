// Both agents against a private sshd whose host key is a certificate (sshd_config
// HostCertificate), trusted in hostbook only through an `@cert-authority` entry: the real
// ssh binds the agent connection to that certificate (session-bind@openssh.com), and the
// agents decide on it as on any host key. Runs under scripts/with-keyring (keys in a vault).
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class AgentHostCertificateTests: XCTestCase {
    override func setUpWithError() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
    }

    /// The server's side: a CA and an Ed25519 host key it certifies for 127.0.0.1, both
    /// made by ssh-keygen (in `keys`, away from the user's files), and an sshd serving the
    /// certificate; returns the CA's `TYPE BASE64`. The sshd's own key is ECDSA, so the
    /// certified key is its only Ed25519 one.
    private func certifiedSSHD(_ keys: TemporaryDirectory, authorizedKeys: [String]) throws -> (sshd: PrivateSSHD, ca: String) {
        let ca = keys.file("host-ca"), hostKey = keys.file("certified_host_key")
        for path in [ca, hostKey] {
            XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-f", path]).status, 0)
        }
        let signed = try ToolProcess.sshKeygen(["-q", "-s", ca, "-h", "-I", "test-host", "-n", "127.0.0.1", "-V", "-1d:+1d", hostKey + ".pub"])
        XCTAssertEqual(signed.status, 0, signed.stderr)
        let sshd = try PrivateSSHD(hostKeyTypes: ["ecdsa"], config: ["HostKey \(hostKey)", "HostCertificate \(hostKey)-cert.pub"],
                                   authorizedKeys: authorizedKeys)
        let caLine = try String(contentsOfFile: ca + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        return (sshd, caLine)
    }

    /// A known_hosts file whose only entry for the sshd is `@cert-authority` with the CA.
    private func caKnownHosts(_ bed: SSHTestBed, _ sshd: PrivateSSHD, ca: String) throws -> String {
        let path = bed.fx.dir.file("ca_known_hosts")
        try Data("@cert-authority [127.0.0.1]:\(sshd.port) \(ca)\n".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `hostbook ssh` to the host: the per-session agent signs for the certificate (it was
    /// refused when session-bind could not read a certificate, ssh 8.9+ then being unbound).
    func testHostbookSSHSignsForAHostTrustedThroughItsCA() throws {
        let bed = try SSHTestBed()
        let pub = try bed.importKey("k")
        let serverKeys = try TemporaryDirectory()
        let (sshd, ca) = try certifiedSSHD(serverKeys, authorizedKeys: [pub])
        defer { sshd.stop() }
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k")
        try bed.fx.ok("known-hosts", "import", try caKnownHosts(bed, sshd, ca: ca))
        let r = try bed.ssh(["web", "-v", "echo reached via $SSH_CONNECTION"])
        XCTAssertEqual(r.status, 0, r.stderr + sshd.log)
        XCTAssertTrue(r.stdout.hasPrefix("reached via 127.0.0.1 "), r.stdout)
        XCTAssertTrue(r.stderr.contains("matches the ED25519-CERT host certificate"), "the certificate was what ssh checked: \(r.stderr)")
        XCTAssertTrue(sshd.log.contains("Accepted publickey for root"), sshd.log)
        try bed.assertNothingLeft()
    }

    /// The standing agent forwarded (`ssh -A`) to the host: nothing signs and nothing locks
    /// through it until the host allows forwarding; then it signs, and still never locks.
    /// (With session-bind failing on the certificate the connection looked local: every
    /// key signed, and `ssh-add -x` from the far side locked the agent.)
    func testForwardedStandingAgentThroughACertificateHost() throws {
        let bed = try SSHTestBed()
        let pub = try bed.importKey("fw")
        let serverKeys = try TemporaryDirectory()
        let (sshd, ca) = try certifiedSSHD(serverKeys, authorizedKeys: [pub])
        defer { sshd.stop() }
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "fw")
        let knownHosts = try caKnownHosts(bed, sshd, ca: ca)
        try bed.fx.ok("known-hosts", "import", knownHosts)

        let start = try bed.fx.run(["agent", "start"])
        XCTAssertEqual(start.status, 0, start.stderr)
        defer { _ = try? bed.fx.run(["agent", "stop"]) }
        let first = start.stdout.prefix { $0 != "\n" }
        XCTAssertTrue(first.hasPrefix("SSH_AUTH_SOCK=") && first.hasSuffix("; export SSH_AUTH_SOCK;"), start.stdout)
        let socket = String(first.dropFirst("SSH_AUTH_SOCK=".count).dropLast("; export SSH_AUTH_SOCK;".count))

        let askpass = bed.fx.dir.file("askpass.sh")
        try Data("#!/bin/sh\necho from-afar\n".utf8).write(to: URL(fileURLWithPath: askpass))
        chmod(askpass, 0o755)
        let options = ["-F", "none", "-p", String(sshd.port), "-o", "BatchMode=yes", "-o", "UserKnownHostsFile=\(knownHosts)",
                       "-o", "GlobalKnownHostsFile=/dev/null", "-o", "StrictHostKeyChecking=yes"]
        // On the far side, through the forwarded agent: sign with the key, log in to the
        // host again (the inner ssh binds its own session to the certificate too), lock.
        let farSide = """
            ssh-add -T \(bed.fx.dir.file("fw-key.pub")); echo sign=$?
            ssh \(options.joined(separator: " ")) root@127.0.0.1 echo inner; echo inner=$?
            SSH_ASKPASS=\(askpass) SSH_ASKPASS_REQUIRE=force ssh-add -x </dev/null; echo lock=$?
            """
        func forwarded() throws -> HostbookResult {
            try bed.fx.tool("/usr/bin/ssh", ["-A"] + options + ["root@127.0.0.1", farSide], environment: ["SSH_AUTH_SOCK": socket])
        }
        let refused = try forwarded()
        XCTAssertEqual(refused.status, 0, refused.stderr + sshd.log)
        XCTAssertTrue(refused.stdout.contains("sign=1\n"), "nothing signs for a host not allowed forwarding: \(refused.stdout)")
        XCTAssertFalse(refused.stdout.contains("inner\n"), refused.stdout)
        XCTAssertTrue(refused.stdout.contains("lock=1\n"), "nothing locks through a forwarded agent: \(refused.stdout)")
        let local = try bed.fx.tool("/usr/bin/ssh-add", ["-l"], environment: ["SSH_AUTH_SOCK": socket])
        XCTAssertEqual(local.status, 0, "the agent is not locked: \(local.stdout)")
        var log = try bed.fx.json("agent", "log") as? [[String: Any]] ?? []
        XCTAssertTrue(log.contains { $0["outcome"] as? String == "refused" && $0["forwarded"] as? Bool == true && $0["destination"] as? String == "web" },
                      "the saved host behind the certificate is the destination: \(log)")

        // The hop's host is found through its CA: allowing forwarding there lets the inner
        // login sign; locking through the forwarded agent stays refused.
        try bed.fx.ok("edit", "web", "--allow-agent-forwarding")
        let allowed = try forwarded()
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
        XCTAssertTrue(allowed.stdout.contains("inner\ninner=0\n"), allowed.stdout + allowed.stderr)
        XCTAssertTrue(allowed.stdout.contains("lock=1\n"), allowed.stdout)
        log = try bed.fx.json("agent", "log") as? [[String: Any]] ?? []
        XCTAssertTrue(log.contains { $0["outcome"] as? String == "signed" && $0["forwarded"] as? Bool == true }, "\(log)")
        XCTAssertEqual(try bed.fx.tool("/usr/bin/ssh-add", ["-l"], environment: ["SSH_AUTH_SOCK": socket]).status, 0)
    }
}
