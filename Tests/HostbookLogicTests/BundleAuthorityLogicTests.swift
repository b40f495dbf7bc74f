// Who may speak for a host (issue 28), in-process (InProcessCommand runs Hostbook.main): a
// trusted but rogue signer's bundle (signed with ssh-keygen -Y sign, imported with
// `hostbook bundle import`) cannot revoke the user's host key, pre-trust a key for the
// user's host, take another bundle's jump host, or take `ssh localhost`; a failed subscribe
// (real git) leaves no clone. Moved from HostbookTests/BundleAuthorityTests, which keeps the
// certificate a real sshd serves.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class BundleAuthorityLogicTests: XCTestCase, TestHostKeys {
    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "needs a Secret Service (scripts/with-keyring)")
    }

    /// A folder FX/NAME holding `text` as bundle.txt, signed by the file key FX/rogue-key
    /// (made on first use); `bundle` (the name in `text`) trusts that signer.
    func signedBundle(_ fx: InProcessCommand, folder name: String, bundle: String, _ text: String) throws -> String {
        let key = fx.dir.file("rogue-key")
        if !FileManager.default.fileExists(atPath: key) {
            XCTAssertEqual(try Tool.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key]).status, 0)
        }
        let folder = fx.dir.file(name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/bundle.txt"))
        let sign = try Tool.run("/usr/bin/ssh-keygen", ["-Y", "sign", "-n", "hostbook-bundle", "-f", key, folder + "/bundle.txt"])
        XCTAssertEqual(sign.status, 0, sign.stderr)
        let signer = try String(contentsOfFile: key + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        _ = try fx.run(["bundle", "trust", bundle, "--signer", signer])
        return folder
    }

    func imported(_ fx: InProcessCommand, _ folder: String) throws -> [String: Any] {
        let r = try fx.run(["bundle", "import", folder, "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any] ?? [:]
    }

    func refusedLines(_ plan: [String: Any]) -> [String: String] {
        Dictionary((plan["refused_host_keys"] as? [[String: Any]] ?? []).map { ($0["line"] as? String ?? "", $0["reason"] as? String ?? "") }) { a, _ in a }
    }

    /// Holes 2, 3 and 6: a bundle host beside the user's host's address cannot revoke its
    /// key or pre-trust another; a bundle host named `localhost` is not applied.
    func testABundleCannotRevokeOrPretrustTheUsersHostNorTakeLocalhost() throws {
        let fx = try InProcessCommand()
        try fx.ok("add", "hop", "--hostname", "127.0.0.1", "--port", "22410")
        try fx.ok("known-hosts", "approve", "hop", "--key", keyA, "--yes")
        try fx.ok("add", "prod", "--hostname", "prod.corp.example")
        let revoke = "@revoked [127.0.0.1]:22410 \(keyA)"
        let pretrust = "prod.corp.example \(keyB)"
        let folder = try signedBundle(fx, folder: "rogue", bundle: "rogue", """
            hostbook-bundle 1
            name "rogue"
            serial 1

            host "localhost"
              hostname "evil.example"
              port 22

            host "near-hop"
              hostname "127.0.0.1"
              port 22410

            host "near-prod"
              hostname "prod.corp.example"
              port 22

            host-key "\(revoke)"
            host-key "\(pretrust)"

            """)
        let plan = try imported(fx, folder)
        XCTAssertEqual(refusedLines(plan), [revoke: "[127.0.0.1]:22410 is the address of your host 'hop'",
                                            pretrust: "prod.corp.example is the address of your host 'prod'"])
        let refusedHosts = (plan["refused_hosts"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertEqual(refusedHosts, ["localhost"])
        XCTAssertEqual(try fx.run(["known-hosts", "check", "hop", "--key", keyA]).status, 0, "the user's key is not revoked")
        XCTAssertEqual(try fx.run(["known-hosts", "check", "prod", "--key", keyB]).status, 10, "the bundle's key is not pre-trusted for prod")
        let hosts = (try fx.json("list") as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertFalse(hosts.contains("localhost"), "\(hosts)")
    }

    /// Hole 5: bundle "team" cannot route its host through bundle "contractor"'s jump host.
    func testABundleCannotTakeAnotherBundlesJumpHost() throws {
        let fx = try InProcessCommand()
        let contractor = try signedBundle(fx, folder: "contractor", bundle: "contractor", """
            hostbook-bundle 1
            name "contractor"
            serial 1

            host "bastion"
              hostname "bastion.contractor.example"
              port 22

            """)
        _ = try imported(fx, contractor)
        let team = try signedBundle(fx, folder: "team", bundle: "team", """
            hostbook-bundle 1
            name "team"
            serial 1

            host "app"
              hostname "app.team.example"
              port 22
              jump "bastion"

            host "bastion"
              hostname "bastion.team.example"
              port 22

            """)
        let plan = try imported(fx, team)
        let refused = (plan["refused_hosts"] as? [[String: Any]] ?? []).map { "\($0["name"] ?? ""): \($0["reason"] ?? "")" }
        XCTAssertEqual(refused, ["app: its jump host 'bastion' is not the bundle's: it is a host from bundle 'contractor'"])
        let hosts = (try fx.json("list") as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertFalse(hosts.contains("app"), "\(hosts)")
    }

    /// A subscribe that fails (a bundle signed by another key than the trusted signer's)
    /// leaves no clone folder and no subscription.
    func testAFailedSubscribeLeavesNothing() throws {
        let fx = try InProcessCommand()
        fx.environment["GIT_AUTHOR_NAME"] = "Publisher"
        fx.environment["GIT_AUTHOR_EMAIL"] = "pub@example.com"
        fx.environment["GIT_COMMITTER_NAME"] = "Publisher"
        fx.environment["GIT_COMMITTER_EMAIL"] = "pub@example.com"
        _ = try signedBundle(fx, folder: "pub", bundle: "other", """
            hostbook-bundle 1
            name "team"
            serial 1

            """)
        let otherKey = fx.dir.file("trusted-key")
        XCTAssertEqual(try Tool.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", otherKey]).status, 0)
        let trusted = try String(contentsOfFile: otherKey + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        try fx.ok("bundle", "trust", "team", "--signer", trusted)
        let script = "git init -q --bare \"$DIR/origin.git\" && cd \"$DIR/pub\" && git init -q && git add -A && git commit -q -m b && git push -q \"$DIR/origin.git\" HEAD:master 2>/dev/null"
        let made = try fx.tool("/bin/sh", ["-c", script], environment: ["DIR": fx.dir.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let r = try fx.run(["bundle", "subscribe", "team", fx.dir.file("origin.git")])
        XCTAssertEqual(r.status, 5, r.stderr)
        let clone = fx.dir.file("data/bundles/team")
        XCTAssertFalse(FileManager.default.fileExists(atPath: clone), "no clone left")
        XCTAssertEqual(try fx.run(["bundle", "update", "team"]).status, 4, "no subscription recorded")
        let bad = try fx.run(["bundle", "subscribe", "team", fx.dir.file("nowhere.git")])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: clone), "no clone left")
    }
}
