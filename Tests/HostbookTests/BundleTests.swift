// Team bundles end to end where a real ordinary account is the subject, with the real
// agent signing and real git: a subscription whose bookkeeping fails (folders made
// read-only, which root would write anyway) still refreshes the installed ssh
// configuration; BundleTeamTests follows a bundle over a private sshd. A (the fixture's
// database, through $HOSTBOOK_DB; the agent serves its keys) publishes, B (--db)
// subscribes. The rest of the bundle workflow runs in-process, its exports signed by an
// agent started from the built binary: HostbookLogicTests/BundleSigningLogicTests,
// BundleTeamLogicTests and BundleLogicTests.
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class BundleTests: XCTestCase, TestHostKeys {
    var fx: HostbookFixture!
    var dbB: String!

    override func setUpWithError() throws {
        try XCTSkipUnless(HostbookFixture.vaultAvailable, "needs a Secret Service (scripts/with-keyring)")
        fx = try HostbookFixture()
        fx.environment["GIT_AUTHOR_NAME"] = "Publisher"
        fx.environment["GIT_AUTHOR_EMAIL"] = "pub@example.com"
        fx.environment["GIT_COMMITTER_NAME"] = "Publisher"
        fx.environment["GIT_COMMITTER_EMAIL"] = "pub@example.com"
        dbB = fx.dir.file("b/hostbook.db")
    }

    override func tearDownWithError() throws {
        if let fx { _ = try? fx.run(["agent", "stop"]) }
    }

    // MARK: helpers

    /// hostbook on database B.
    @discardableResult
    func onB(_ args: String..., stdin: String? = nil) throws -> HostbookResult { try fx.run(args + ["--db", dbB], stdin: stdin) }

    func shell(_ script: String) throws -> Shell.Result {
        try Shell.run(script, environment: fx.environment.merging(["DIR": fx.dir.path]) { $1 }, account: fx.account)
    }

    func sh(_ script: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try shell(script)
        XCTAssertEqual(r.status, 0, "\(script): \(r.stderr)", file: file, line: line)
    }

    func startAgent() throws {
        let r = try fx.run(["agent", "start"])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    /// The key's public line `TYPE BASE64`.
    func publicLine(_ key: String) throws -> String {
        let shown = try fx.json("keys", "show", key) as? [String: Any] ?? [:]
        return (shown["public_key"] as? String ?? "").split(separator: " ").prefix(2).joined(separator: " ")
    }

    func hostsOnB() throws -> [String: [String: Any]] {
        let r = try onB("list", "--json")
        XCTAssertEqual(r.status, 0, r.stderr)
        let list = try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as? String ?? "", $0) })
    }

    /// A publisher's setup on A: a signing key, hosts, a password, a host key; the agent runs.
    func publisher() throws -> String {
        try fx.ok("keys", "generate", "signer")
        try fx.ok("add", "web", "--hostname", "10.0.0.5", "--user", "deploy", "--tag", "team", "--key", "signer", "--note", "the web server")
        try fx.ok("add", "db", "--hostname", "10.0.0.6", "--tag", "team")
        try fx.ok("add", "private", "--hostname", "10.9.9.9")
        try fx.ok("edit", "web", "--password-stdin", stdin: "pw-Secret-4242\n")
        try fx.ok("known-hosts", "approve", "10.0.0.5", "--key", keyA, "--yes")
        try startAgent()
        return try publicLine("signer")
    }

    /// A bare repository and the publisher's clone of it (DIR/origin.git, DIR/pub).
    func repository() throws {
        try sh("git init -q --bare \"$DIR/origin.git\" && git clone -q \"$DIR/origin.git\" \"$DIR/pub\" 2>/dev/null")
    }

    func push(_ message: String) throws {
        try sh("cd \"$DIR/pub\" && git add -A && git commit -q -m \"\(message)\" && git push -q origin HEAD")
    }

    // MARK: tests

    /// A subscription whose bookkeeping fails after the bundle was written (the clone's
    /// folders cannot be written): the update fails, and the installed ssh configuration
    /// still shows what the database holds now.
    func testAFailureAfterTheApplyStillRefreshesTheInstalledSSHConfiguration() throws {
        let home = fx.dir.file("home")
        let homeB = ["HOME": home, "XDG_CONFIG_HOME": home + "/.config"]
        func inHomeB(_ args: String...) throws -> HostbookResult { try fx.run(args + ["--db", dbB], bytes: nil, environment: homeB) }
        try sh("mkdir -p \"$DIR/home/.ssh\" && chmod 700 \"$DIR/home/.ssh\"")
        let signerLine = try publisher()
        try repository()
        XCTAssertEqual(try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", fx.dir.file("pub")]).status, 0)
        try push("serial 1")
        XCTAssertEqual(try onB("bundle", "trust", "team", "--signer", signerLine).status, 0)
        var r = try inHomeB("bundle", "subscribe", "team", fx.dir.file("origin.git"))
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try inHomeB("ssh-config", "--install")
        XCTAssertEqual(r.status, 0, r.stderr)

        try fx.ok("add", "newhost", "--hostname", "10.1.1.1", "--port", "2022", "--tag", "team")
        XCTAssertEqual(try fx.run(["bundle", "export", "--name", "team", "--sign", "signer", "--tag", "team", "-o", fx.dir.file("pub")]).status, 0)
        try push("serial 2")
        // The clone's own folder and its ref folders are read-only: fetching works, recording
        // what was applied does not.
        let locked = "F=\"$DIR/b/bundles/team\"; for d in \"$F\" \"$F/.git/refs\" \"$F/.git/refs/hostbook\"; do [ -d \"$d\" ] && chmod"
        try sh("\(locked) 500 \"$d\"; done; true")
        defer { _ = try? shell("\(locked) 700 \"$d\"; done; true") }
        r = try inHomeB("bundle", "update", "team")
        XCTAssertNotEqual(r.status, 0, "recording the update failed: \(r.stdout)")
        XCTAssertEqual(try hostsOnB()["newhost"]?["hostname"] as? String, "10.1.1.1", "the bundle was applied")
        let resolved = try fx.tool("/usr/bin/ssh", ["-F", home + "/.ssh/config", "-G", "newhost"])
        XCTAssertEqual(resolved.status, 0, resolved.stderr)
        XCTAssertTrue(resolved.stdout.contains("\nhostname 10.1.1.1\n") && resolved.stdout.contains("\nport 2022\n"), resolved.stdout)
    }
}
