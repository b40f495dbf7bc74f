// Who may speak for a host, end to end (issue 28): a trusted but rogue signer's bundle
// (signed with ssh-keygen -Y sign, imported with `hostbook bundle import`) cannot certify a
// man-in-the-middle server for the user's host (a real sshd serving a HostCertificate from
// the bundle's CA). Revoking or pre-trusting the user's host keys, another bundle's jump
// host, `ssh localhost` and a failed subscribe run in-process:
// HostbookLogicTests/BundleAuthorityLogicTests; everything else of the rule is in
// HostStoreTests' TrustAuthorityTests.
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class BundleAuthorityTests: XCTestCase, TestHostKeys {
    override func setUpWithError() throws {
        try XCTSkipUnless(HostbookFixture.vaultAvailable, "needs a Secret Service (scripts/with-keyring)")
    }

    /// A folder FX/NAME holding `text` as bundle.txt, signed by the file key FX/rogue-key
    /// (made on first use); `bundle` (the name in `text`) trusts that signer.
    func signedBundle(_ fx: HostbookFixture, folder name: String, bundle: String, _ text: String) throws -> String {
        let key = fx.dir.file("rogue-key")
        if !FileManager.default.fileExists(atPath: key) {
            XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-f", key]).status, 0)
        }
        let folder = fx.dir.file(name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/bundle.txt"))
        let sign = try fx.tool("/usr/bin/ssh-keygen", ["-Y", "sign", "-n", "hostbook-bundle", "-f", key, folder + "/bundle.txt"])
        XCTAssertEqual(sign.status, 0, sign.stderr)
        let signer = try String(contentsOfFile: key + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        _ = try fx.run(["bundle", "trust", bundle, "--signer", signer])
        return folder
    }

    func imported(_ fx: HostbookFixture, _ folder: String) throws -> [String: Any] {
        let r = try fx.run(["bundle", "import", folder, "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any] ?? [:]
    }

    func refusedLines(_ plan: [String: Any]) -> [String: String] {
        Dictionary((plan["refused_host_keys"] as? [[String: Any]] ?? []).map { ($0["line"] as? String ?? "", $0["reason"] as? String ?? "") }) { a, _ in a }
    }

    /// Hole 1: a bundle host at the address of the user's host `tgt`, with an
    /// `@cert-authority` line for that address. A real sshd there serves a certificate from
    /// the bundle's CA: it must not be trusted for `tgt`, and `hostbook ssh tgt` must not log in.
    func testABundleCannotCertifyAServerForTheUsersHost() throws {
        let bed = try SSHTestBed()
        let fx = bed.fx
        let pub = try bed.importKey("k")
        let serverKeys = try TemporaryDirectory()
        let ca = serverKeys.file("host-ca"), hostKey = serverKeys.file("certified_host_key")
        for path in [ca, hostKey] {
            XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-f", path]).status, 0)
        }
        let signed = try ToolProcess.sshKeygen(["-q", "-s", ca, "-h", "-I", "mitm", "-n", "127.0.0.1", "-V", "-1d:+1d", hostKey + ".pub"])
        XCTAssertEqual(signed.status, 0, signed.stderr)
        let sshd = try PrivateSSHD(hostKeyTypes: ["ecdsa"], config: ["HostKey \(hostKey)", "HostCertificate \(hostKey)-cert.pub"],
                                   authorizedKeys: [pub])
        defer { sshd.stop() }
        let caLine = try String(contentsOfFile: ca + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        let certLine = try String(contentsOfFile: hostKey + "-cert.pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        // The user's host, with the key they approved for it (the real server's).
        try fx.ok("add", "tgt", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k")
        try fx.ok("known-hosts", "approve", "tgt", "--key", keyA, "--yes")

        let caHostLine = "@cert-authority [127.0.0.1]:\(sshd.port) \(caLine)"
        let folder = try signedBundle(fx, folder: "rogue", bundle: "rogue", """
            hostbook-bundle 1
            name "rogue"
            serial 1

            host "ca-host"
              hostname "127.0.0.1"
              port \(sshd.port)

            host-key "\(caHostLine)"

            """)
        let plan = try imported(fx, folder)
        XCTAssertEqual(plan["host_keys_trusted"] as? [String], [])
        XCTAssertEqual(refusedLines(plan)[caHostLine], "[127.0.0.1]:\(sshd.port) is the address of your host 'tgt'", "\(plan)")
        let text = try fx.run(["bundle", "import", folder, "--dry-run"])
        XCTAssertTrue(text.stdout.contains("not applied: host-key line '@cert-authority [127.0.0.1]:\(sshd.port) "), text.stdout)

        let check = try fx.run(["known-hosts", "check", "tgt", "--key", certLine])
        XCTAssertNotEqual(check.status, 0, "the MITM certificate is not trusted for tgt: \(check.stdout)")
        let login = try bed.ssh(["tgt", "-o", "BatchMode=yes", "echo logged in"])
        XCTAssertNotEqual(login.status, 0, login.stdout)
        XCTAssertFalse(sshd.log.contains("Accepted publickey"), sshd.log)
    }
}
