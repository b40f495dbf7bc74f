// Team bundles where no agent signs, in-process (InProcessCommand runs Hostbook.main on two
// databases, real git and ssh-keygen -Y sign): unsafe bundle names and URLs are refused
// before git runs, and a rogue signer's bundle cannot speak for other hosts. Moved from
// HostbookTests/BundleTests, which keeps what the standing agent signs.
import Foundation
@testable import hostbook
import TestSupport
import XCTest

final class BundleLogicTests: XCTestCase, TestHostKeys {
    var fx: InProcessCommand!
    var dbB: String!

    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "needs a Secret Service (scripts/with-keyring)")
        fx = try InProcessCommand()
        dbB = fx.dir.file("b/hostbook.db")
    }
    override func tearDown() { fx = nil }

    /// hostbook on database B.
    @discardableResult
    func onB(_ args: String..., stdin: String = "") throws -> InProcessCommand.Outcome { try fx.call(args + ["--db", dbB], stdin: stdin) }

    func hostsOnB() throws -> [String: [String: Any]] {
        let r = try onB("list", "--json")
        XCTAssertEqual(r.status, 0, r.stderr)
        let list = try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "", $0) })
    }

    func testUnsafeNamesAndURLsAreRefused() throws {
        for (name, url) in [("../escape", "/tmp/x"), (".hidden", "/tmp/x"), ("team", "--upload-pack=touch /tmp/pwned"), ("team", "/tmp/x\u{1b}[2J"),
                           ("team", "https://me:s3cret-token@git.example.com/team.git"),
                           ("team", "https://s3cret-token@github.com/team.git"), ("team", "HTTP://s3cret-token@git.example.com/team.git"),
                           ("team", "git://s3cret-token@git.example.com/team.git"),
                           ("team", "ext::sh -c touch% \(fx.dir.file("pwned"))"), ("team", "fd::17")] {
            try onB("bundle", "trust", "team", "--signer", keyA)
            // `--` so that a URL starting with dashes reaches the command as the URL.
            let r = try fx.call(["--db", dbB, "bundle", "subscribe", "--", name, url])
            XCTAssertEqual(r.status, 5, "\(name) \(url): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("\u{1b}"), "escaped: \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("s3cret-token"), "no password in an error: \(r.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: fx.dir.file("b/bundles")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fx.dir.file("pwned")), "ext:: ran nothing")
        // Over ssh the user part is a login name: the URL is taken (git then finds nothing
        // listening on port 1: exit 1, not a refusal).
        let ssh = try fx.call(["--db", dbB, "bundle", "subscribe", "team", "ssh://git@127.0.0.1:1/team.git"])
        XCTAssertEqual(ssh.status, 1, ssh.stderr)
        XCTAssertTrue(ssh.stderr.contains("git could not clone"), ssh.stderr)
        // git's stderr as lines, each escaped (ssh ends its lines with CR LF).
        XCTAssertTrue(ssh.stderr.contains("\n  git: fatal: Could not read from remote repository.\n"), ssh.stderr)
        XCTAssertFalse(ssh.stderr.contains("\\u{d}") || ssh.stderr.contains("\\u{a}"), ssh.stderr)
        XCTAssertEqual(try onB("bundle", "update", "nothing").status, 4)
    }

    /// `bundle import --dry-run` creates no database: with none at --db it plans against an
    /// empty one (no signer trusted: refused) and leaves no file.
    /// A bundle signed by a trusted but rogue signer (ssh-keygen -Y sign) speaks only for
    /// its own hosts: its CA for `*`, its @revoked for the user's key, its github.com key and
    /// its host named github.com are reported and not applied (docs/formats.md).
    func testARogueSignersBundleCannotSpeakForOtherHosts() throws {
        let folder = fx.dir.file("rogue")
        XCTAssertEqual(try fx.tool("/bin/mkdir", [folder]).status, 0)
        XCTAssertEqual(try fx.tool("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", fx.dir.file("rogue-key")]).status, 0)
        let text = """
        hostbook-bundle 1
        name "team"
        serial 1

        host "app"
          hostname "app.team.example"
          port 22

        host "github.com"
          hostname "evil.example"
          port 22

        host-key "@cert-authority * \(keyB)"
        host-key "@revoked prod.corp.example \(keyA)"
        host-key "app.team.example \(keyB)"
        host-key "github.com \(keyB)"

        """
        XCTAssertEqual(try fx.tool("/bin/sh", ["-c", "cat > \"$0\"", folder + "/bundle.txt"], stdin: text).status, 0)
        let sign = try fx.tool("/usr/bin/ssh-keygen", ["-Y", "sign", "-n", "hostbook-bundle", "-f", fx.dir.file("rogue-key"), folder + "/bundle.txt"])
        XCTAssertEqual(sign.status, 0, sign.stderr)
        let signer = try String(contentsOfFile: fx.dir.file("rogue-key.pub"), encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        try onB("add", "prod", "--hostname", "prod.corp.example")
        XCTAssertEqual(try onB("known-hosts", "approve", "prod.corp.example", "--key", keyA, "--yes").status, 0)
        XCTAssertEqual(try onB("bundle", "trust", "team", "--signer", signer).status, 0)

        let applied = try onB("bundle", "import", folder, "--json")
        XCTAssertEqual(applied.status, 0, applied.stderr)
        let plan = try JSONSerialization.jsonObject(with: applied.stdoutBytes) as? [String: Any] ?? [:]
        XCTAssertEqual(plan["hosts_added"] as? [String], ["app"])
        XCTAssertEqual((plan["refused_hosts"] as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["github.com"])
        let refusedLines = (plan["refused_host_keys"] as? [[String: Any]] ?? []).compactMap { $0["line"] as? String }
        XCTAssertEqual(refusedLines, ["@cert-authority * \(keyB)", "@revoked prod.corp.example \(keyA)",
                                      "github.com \(keyB)"])
        XCTAssertEqual(plan["host_keys_trusted"] as? [String], ["app.team.example \(keyB)"])
        XCTAssertEqual(try onB("known-hosts", "check", "prod.corp.example", "--key", keyA).status, 0, "the user's key is not revoked")
        XCTAssertNotEqual(try onB("known-hosts", "check", "github.com", "--key", keyB).status, 0)
        XCTAssertEqual(try onB("known-hosts", "check", "app.team.example", "--key", keyB).status, 0)
        XCTAssertNil(try hostsOnB()["github.com"])
        // The text report names what was refused, and why.
        let again = try onB("bundle", "import", folder, "--dry-run")
        XCTAssertTrue(again.stdout.contains("not applied: host 'github.com': 'github.com' looks like a DNS name"), again.stdout)
        XCTAssertTrue(again.stdout.contains("not applied: host-key line '@cert-authority * ssh-ed25519 "), again.stdout)
    }
}
