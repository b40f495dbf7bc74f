// `hostbook ca` end to end, as the test account, against a real sshd that trusts only the
// CA (TrustedUserCAKeys, AuthorizedPrincipalsFile, RevokedKeys = hostbook's KRL, no
// authorized_keys): a certificate from `hostbook ca sign` logs in with plain ssh, and once
// its serial is revoked and the KRL rewritten, it no longer does while a new one does.
// Runs under scripts/with-keyring (the CA's key is in the vault).
import Foundation
import TestSupport
import XCTest

final class CACommandTests: XCTestCase {
    override func setUpWithError() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
    }

    func testASignedCertificateLogsInUntilItsSerialIsRevoked() throws {
        let fx = try HostbookFixture()
        let caLine = try fx.ok("ca", "create", "team").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(caLine.hasPrefix("ssh-ed25519 ") && caLine.hasSuffix(" team"), caLine)
        XCTAssertEqual(try fx.ok("ca", "public", "team").stdout.trimmingCharacters(in: .whitespacesAndNewlines), caLine)
        // The private key is nowhere on disk: only the public line is in any file of the fixture.
        let caFile = fx.dir.file("user-ca.pub"), principals = fx.dir.file("principals"), krl = fx.dir.file("revoked.krl")
        try Data((caLine + "\n").utf8).write(to: URL(fileURLWithPath: caFile))
        try Data("deploy\n".utf8).write(to: URL(fileURLWithPath: principals))
        try fx.ok("ca", "krl", "team", "--output", krl)

        // The user's key, the account's own; its certificate is for principal "deploy".
        let key = fx.dir.file("id_ed25519")
        XCTAssertEqual(try fx.tool("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key]).status, 0)
        let cert = key + "-cert.pub"
        try fx.ok("ca", "sign", "team", "--public-key", key + ".pub", "--identity", "alice@laptop", "--principal", "deploy",
                  "--valid", "1h", "--output", cert)
        let wrongPrincipal = fx.dir.file("other-cert.pub")
        try fx.ok("ca", "sign", "team", "--public-key", key + ".pub", "--identity", "alice@laptop", "--principal", "someone-else",
                  "--valid", "1h", "--output", wrongPrincipal)

        let sshd = try PrivateSSHD(config: ["TrustedUserCAKeys \(caFile)", "AuthorizedPrincipalsFile \(principals)",
                                            "RevokedKeys \(krl)", "AuthorizedKeysFile none"])
        defer { sshd.stop() }
        let knownHosts = fx.dir.file("known_hosts")
        try Data("[127.0.0.1]:\(sshd.port) \(try sshd.publicKey())\n".utf8).write(to: URL(fileURLWithPath: knownHosts))
        func login(_ certificate: String) throws -> HostbookResult {
            try fx.tool("/usr/bin/ssh", sshd.sshOptions(knownHosts: knownHosts)
                        + ["-o", "StrictHostKeyChecking=yes", "-o", "IdentitiesOnly=yes", "-i", key, "-o", "CertificateFile=\(certificate)",
                           "-l", fx.userName, "127.0.0.1", "echo logged in"])
        }
        let first = try login(cert)
        XCTAssertEqual(first.status, 0, first.stderr + sshd.log)
        XCTAssertEqual(first.stdout, "logged in\n")
        XCTAssertTrue(sshd.log.contains("ID alice@laptop (serial 1) CA ED25519"), sshd.log)
        XCTAssertNotEqual(try login(wrongPrincipal).status, 0, "a certificate for another principal")

        // Serial 1 revoked: refused; a new certificate (serial 3) still logs in.
        try fx.ok("ca", "revoke", "team", "--serial", "1")
        try fx.ok("ca", "krl", "team", "--output", krl)
        let revoked = try login(cert)
        XCTAssertNotEqual(revoked.status, 0, "a revoked serial logged in: \(sshd.log)")
        XCTAssertTrue(sshd.log.contains("revoked"), sshd.log)
        try fx.ok("ca", "sign", "team", "--public-key", key + ".pub", "--identity", "alice@laptop", "--principal", "deploy",
                  "--valid", "1h", "--output", cert)
        let renewed = try login(cert)
        XCTAssertEqual(renewed.status, 0, renewed.stderr + sshd.log)

        let log = try fx.ok("ca", "log", "team").stdout
        XCTAssertTrue(log.contains("serial"), log)
        XCTAssertEqual(try fx.run(["ca", "revoke", "team", "--serial", "9"]).status, 4)
        XCTAssertEqual(try fx.run(["ca", "sign", "team", "--public-key", key + ".pub", "--identity", "x", "--principal", "p",
                                   "--valid", "4s"]).status, 2, "shorter than 5s")
        XCTAssertEqual(try fx.run(["ca", "sign", "nobody", "--public-key", key + ".pub", "--identity", "x", "--principal", "p",
                                   "--valid", "1h"]).status, 4)
        for name in try FileManager.default.contentsOfDirectory(atPath: fx.dir.path) {
            guard let data = FileManager.default.contents(atPath: fx.dir.file(name)) else { continue }
            if name != "id_ed25519" { XCTAssertFalse(String(decoding: data, as: UTF8.self).contains("PRIVATE KEY"), name) }
        }
    }
}
