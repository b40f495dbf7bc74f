// One login end to end with a key only OpenSSH's ssh-agent holds: the agent runs as the
// unprivileged test account (its socket in the account's private runtime folder, stopped
// by its pid), `hostbook keys import-agent` saves the key's public half (location
// upstream) and the socket, `keys list` / `keys show --json` say where it lives, and
// `hostbook ssh` logs in to a private sshd through it. The command line is the subject:
// the real binary runs. The rules, approvals and the log are tested in-process
// (SessionsTests' UpstreamAgentKeysTests).
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class UpstreamAgentLoginTests: XCTestCase {
    override func setUpWithError() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh-agent") else { throw XCTSkip("needs OpenSSH's ssh-agent") }
    }

    func testAKeyOnlySSHAgentHoldsLogsInThroughHostbookSSH() throws {
        let bed = try SSHTestBed()
        let socket = bed.runtime + "/upstream.sock"
        let agent = try Shell.start("exec /usr/bin/ssh-agent -D -a \"$SOCK\"", environment: ["SOCK": socket], dir: bed.fx.dir,
                                    tag: "upstream", account: bed.fx.account)
        defer {
            kill(agent.processIdentifier, SIGTERM)
            agent.waitUntilExit()
        }
        // Ready once it has printed its environment (after it listens); no deadline of our own.
        while agent.isRunning, !Shell.output(bed.fx.dir, "upstream").0.contains("Agent pid") { usleep(10_000) }
        XCTAssertTrue(agent.isRunning, Shell.output(bed.fx.dir, "upstream").1)

        // A key hostbook never sees as a private key: made and added by the account, its file removed.
        let keyFile = bed.home + "/far"
        let made = try Shell.run("ssh-keygen -q -t ed25519 -N '' -C far -f \"$K\" && SSH_AUTH_SOCK=\"$SOCK\" ssh-add -q \"$K\" && rm \"$K\"",
                                 environment: ["K": keyFile, "SOCK": socket], account: bed.fx.account)
        XCTAssertEqual(made.status, 0, made.stderr)
        let pub = try String(contentsOfFile: keyFile + ".pub", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        try FileManager.default.removeItem(atPath: keyFile + ".pub")

        let imported = try bed.fx.run(["--json", "keys", "import-agent", socket])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any])
        let keys = try XCTUnwrap(document["imported"] as? [[String: Any]])
        XCTAssertEqual(keys.map { $0["name"] as? String }, ["far"])
        XCTAssertEqual(keys.first?["location"] as? String, "upstream")
        XCTAssertEqual(document["socket"] as? String, socket)

        let shown = try bed.fx.run(["--json", "keys", "show", "far"])
        let key = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(key["location"] as? String, "upstream")
        XCTAssertTrue(key["needs_presence"] is NSNull, "the other agent decides: not known")
        let list = try bed.fx.run(["keys", "list"])
        XCTAssertTrue(list.stdout.contains("LOCATION") && list.stdout.contains("upstream"), list.stdout)
        let upstreams = try bed.fx.run(["agent", "upstream", "list"])
        XCTAssertTrue(upstreams.stdout.contains(socket) && upstreams.stdout.contains("1 key"), upstreams.stdout + upstreams.stderr)

        let sshd = try PrivateSSHD(authorizedKeys: [pub])
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "far")
        try bed.trust(sshd)
        let r = try bed.ssh(["web", "echo connected"])
        XCTAssertEqual(r.status, 0, r.stderr + sshd.log)
        XCTAssertEqual(r.stdout, "connected\n")
        XCTAssertTrue(sshd.log.contains("Accepted publickey for root"), sshd.log)

        // The standing agent with the socket given only as --upstream (the setting
        // forgotten): ssh-keygen -Y sign through it signs with the upstream's key, logged.
        XCTAssertEqual(try bed.fx.run(["agent", "upstream", "remove", socket]).status, 0)
        let started = try bed.fx.run(["--json", "agent", "start", "--upstream", socket])
        XCTAssertEqual(started.status, 0, started.stderr)
        defer { _ = try? bed.fx.run(["agent", "stop"]) }   // when a check below fails first
        let standing = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(started.stdout.utf8)) as? [String: Any])["socket"] as? String
        let pubFile = bed.home + "/far.pub"
        try Data((pub + "\n").utf8).write(to: URL(fileURLWithPath: pubFile))
        try Data("signed data\n".utf8).write(to: URL(fileURLWithPath: bed.home + "/data"))
        let signed = try Shell.run("SSH_AUTH_SOCK=\"$HB_SOCK\" ssh-keygen -q -Y sign -n file -f \"$PUB\" \"$DATA\"",
                                   environment: ["HB_SOCK": standing ?? "", "PUB": pubFile, "DATA": bed.home + "/data"], account: bed.fx.account)
        XCTAssertEqual(signed.status, 0, signed.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: bed.home + "/data.sig"))
        // The log is written in the background; stopping the agent writes what it holds.
        XCTAssertEqual(try bed.fx.run(["agent", "stop"]).status, 0)
        let log = try bed.fx.run(["--json", "agent", "log"])
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(log.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(entries.map { $0["key"] as? String }, ["far"], log.stdout)
        XCTAssertEqual(entries.map { $0["outcome"] as? String }, ["signed"], log.stdout)
    }
}
