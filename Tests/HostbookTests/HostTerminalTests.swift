// The terminal paths, run under a pseudo-terminal (util-linux `script`): confirmation
// before removing, and the no-echo password prompt.
import Foundation
import XCTest

final class HostTerminalTests: XCTestCase {
    var hb: HostbookFixture!

    // XCTest keeps every test case object until the run ends: drop the fixture now so its
    // temporary folder is removed now.
    override func tearDown() { hb = nil }

    override func setUpWithError() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs util-linux script")
        hb = try HostbookFixture()
    }

    /// Runs hostbook with `args` on a pseudo-terminal, typing `typed` after `delay` seconds
    /// (a prompt that turns echo off also flushes what was typed before it appeared).
    func onTerminal(_ args: String, typed: String, delay: Double = 0) throws -> Shell.Result {
        try Shell.run("(sleep \"$DELAY\"; printf '%s' \"$TYPED\") | script -qec \"\\\"$HB\\\" $ARGS\" /dev/null",
                      environment: hb.environment.merging(["TYPED": typed, "ARGS": args, "DELAY": String(delay)]) { $1 }, account: hb.account)
    }

    func testRemoveAsksOnATerminal() throws {
        try hb.ok("add", "web", "--hostname", "w.example")
        var r = try onTerminal("remove web", typed: "n\n")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains("Remove host 'web' (w.example)? [y/N] Nothing removed."), r.stdout)
        XCTAssertEqual((try hb.json("list") as? [Any])?.count, 1)
        r = try onTerminal("remove web", typed: "yes\n")
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("Remove host 'web' (w.example)? [y/N] Removed host 'web'."), r.stdout)
        XCTAssertEqual((try hb.json("list") as? [Any])?.count, 0)

        try hb.ok("snippets", "add", "s", "--command", "ls")
        r = try onTerminal("snippets remove s", typed: "y\n")
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("Remove snippet 's'? [y/N] Removed snippet 's'."), r.stdout)
        // --no-input never asks.
        try hb.ok("snippets", "add", "t", "--command", "ls")
        r = try onTerminal("snippets remove t --no-input", typed: "y\n")
        XCTAssertEqual(r.status, 3)
        XCTAssertTrue(r.stdout.contains("hostbook: confirmation is needed but --no-input was given\r\nUse --yes instead."), r.stdout)
    }

    func testPasswordPromptDoesNotEcho() throws {
        try XCTSkipUnless(HostbookFixture.vaultAvailable, "needs a Secret Service: run inside scripts/with-keyring")
        let secret = "Tr0ub4dor-" + UUID().uuidString
        let r = try onTerminal("add db --hostname db.example --password-stdin", typed: secret + "\n", delay: 1.5)
        XCTAssertEqual(r.status, 0, r.stdout)
        XCTAssertTrue(r.stdout.contains("Password for db: "), r.stdout)
        XCTAssertFalse(r.stdout.contains(secret), "the password was echoed")
        XCTAssertTrue(r.stdout.contains("Added host 'db' (db.example, auth password)."), r.stdout)
        XCTAssertEqual((try hb.json("show", "db") as? [String: Any])?["auth"] as? String, "password")
    }

    func testNoInputRefusesThePasswordPrompt() throws {
        let r = try onTerminal("add db --hostname db.example --password-stdin --no-input", typed: "")
        XCTAssertEqual(r.status, 3)
        XCTAssertTrue(r.stdout.contains("hostbook: Password for db is needed but --no-input was given\r\nUse --password-stdin with the password piped in instead."), r.stdout)
        XCTAssertEqual(try hb.run("list", "--json").stdout, "[]\n")
    }
}
