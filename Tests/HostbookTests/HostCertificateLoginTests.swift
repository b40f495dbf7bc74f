// Host certificates end the trust-on-first-use prompt: one sshd presents three host
// certificates made by `hostbook ca sign --host` (Ed25519: valid for 127.0.0.1; ECDSA:
// expired; RSA: valid, its key revoked in hostbook's store), and hostbook trusts the CA
// through an `@cert-authority` entry. `hostbook ssh` connects with the valid one with no
// prompt, and so does plain ssh with the installed configuration; the others, and the valid
// one under a name it does not list, are refused with a message that says why. Runs under scripts/with-keyring (the CA's key is in the vault).
import Foundation
import TestSupport
import XCTest

final class HostCertificateLoginTests: XCTestCase {
    override func setUpWithError() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
    }

    func testHostCertificatesFromATrustedCAConnectWithoutAPromptAndInvalidOnesAreRefusedWithTheReason() throws {
        let bed = try SSHTestBed()
        let fx = bed.fx
        let pub = try bed.importKey("k")
        let caLine = try fx.ok("ca", "create", "hosts").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        // Host keys made by root for sshd; their public halves copied where hostbook reads them.
        let serverKeys = try TemporaryDirectory(rootOnly: true)
        var config: [String] = []
        for (type, validity) in [("ed25519", ["--valid", "1h"]), ("ecdsa", ["--valid-from", "2020-01-01T00:00:00Z", "--valid-to", "2020-01-02T00:00:00Z"]),
                                 ("rsa", ["--valid", "1h"])] {
            let key = serverKeys.file("host_\(type)")
            XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", type, "-N", "", "-f", key]).status, 0)
            let copy = fx.dir.file("host_\(type).pub")
            try FileManager.default.copyItem(atPath: key + ".pub", toPath: copy)
            chmod(copy, 0o644)
            let signed = try fx.run(["ca", "sign", "hosts", "--host", "--public-key", copy, "--identity", "test-\(type)", "--principal", "127.0.0.1",
                                     "--output", fx.dir.file("host_\(type)-cert.pub")] + validity)
            XCTAssertEqual(signed.status, 0, signed.stderr)
            config += ["HostKey \(key)", "HostCertificate \(fx.dir.file("host_\(type)-cert.pub"))"]
        }
        let sshd = try PrivateSSHD(hostKeyTypes: [], config: config, authorizedKeys: [pub])
        defer { sshd.stop() }
        let caFile = fx.dir.file("ca_known_hosts")
        try Data("@cert-authority [127.0.0.1]:\(sshd.port),[localhost]:\(sshd.port) \(caLine)\n".utf8).write(to: URL(fileURLWithPath: caFile))
        try fx.ok("known-hosts", "import", caFile)
        try fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", fx.userName, "--key", "k")
        try fx.ok("add", "web-by-name", "--hostname", "localhost", "--port", String(sshd.port), "--user", fx.userName, "--key", "k")

        let check = try fx.run(["known-hosts", "check", "127.0.0.1", "--port", String(sshd.port), "--key",
                                try String(contentsOfFile: fx.dir.file("host_ed25519-cert.pub"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), "--json"])
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdout.contains("\"via_certificate_authority\": true"), check.stdout)

        func ssh(_ host: String, _ algorithm: String) throws -> HostbookResult {
            try bed.ssh([host, "-o", "HostKeyAlgorithms=\(algorithm)", "echo connected"])
        }
        let good = try ssh("web", "ssh-ed25519-cert-v01@openssh.com")
        XCTAssertEqual(good.status, 0, good.stderr + sshd.log)
        XCTAssertEqual(good.stdout, "connected\n")
        XCTAssertFalse(good.stderr.contains("?"), "no question: \(good.stderr)")

        // Plain ssh with the installed configuration: the same KnownHostsCommand, and the
        // standing agent's key.
        XCTAssertEqual(try fx.run(["ssh-config", "--install"]).status, 0)
        let start = try fx.run(["agent", "start"])
        XCTAssertEqual(start.status, 0, start.stderr)
        defer { _ = try? fx.run(["agent", "stop"]) }
        func plainSSH(_ algorithm: String) throws -> HostbookResult {
            try fx.tool("/usr/bin/ssh", ["-F", bed.home + "/.ssh/config", "-o", "BatchMode=yes", "-o", "HostKeyAlgorithms=\(algorithm)",
                                         "web", "echo plain"], environment: ["SSH_AUTH_SOCK": ""])
        }
        let plain = try plainSSH("ssh-ed25519-cert-v01@openssh.com")
        XCTAssertEqual(plain.status, 0, plain.stderr + sshd.log)
        XCTAssertEqual(plain.stdout, "plain\n")
        let plainExpired = try plainSSH("ecdsa-sha2-nistp256-cert-v01@openssh.com")
        XCTAssertNotEqual(plainExpired.status, 0)
        XCTAssertTrue(plainExpired.stderr.contains("the certificate has expired"), plainExpired.stderr)

        // An expired certificate: refused with the reason, and no prompt for its plain key
        // (there is no terminal here; the refusal comes before any approval is offered).
        let expired = try ssh("web", "ecdsa-sha2-nistp256-cert-v01@openssh.com")
        XCTAssertNotEqual(expired.status, 0, expired.stdout)
        XCTAssertTrue(expired.stderr.contains("refusing the host certificate of '127.0.0.1' (port \(sshd.port)) (key id 'test-ecdsa', serial 2), signed by a trusted certificate authority: the certificate has expired (valid until 2020-01-02T00:00:00Z)"),
                      expired.stderr)
        XCTAssertFalse(expired.stderr.contains("is not known"), "the plain key is not offered: \(expired.stderr)")
        // The valid certificate under a name it does not list.
        let wrongName = try ssh("web-by-name", "ssh-ed25519-cert-v01@openssh.com")
        XCTAssertNotEqual(wrongName.status, 0, wrongName.stdout)
        XCTAssertTrue(wrongName.stderr.contains("the certificate is not valid for the host name 'localhost'; it lists 127.0.0.1"), wrongName.stderr)
        // A certificate whose key is revoked in the store: ssh's own revoked-key refusal.
        try fx.ok("known-hosts", "revoke", "127.0.0.1", "--port", String(sshd.port), "--key",
                  try String(contentsOfFile: fx.dir.file("host_rsa.pub"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
        let revoked = try ssh("web", "rsa-sha2-512-cert-v01@openssh.com")
        XCTAssertNotEqual(revoked.status, 0, revoked.stdout)
        XCTAssertTrue(revoked.stderr.contains("REVOKED HOST KEY DETECTED"), revoked.stderr)
        XCTAssertEqual(sshd.log.components(separatedBy: "Accepted publickey").count - 1, 2,
                       "only the valid certificate logged in (hostbook ssh, plain ssh): \(sshd.log)")
    }
}
