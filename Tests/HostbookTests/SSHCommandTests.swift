// `hostbook ssh` end to end: the real ssh against private sshds on 127.0.0.1, keys and
// passwords from a real GNOME Keyring (run under scripts/with-keyring). Refusals before
// ssh starts and --print-config run in-process: HostbookLogicTests/SSHCommandLogicTests.
import Foundation
import TestSupport
import XCTest

final class SSHCommandTests: XCTestCase {
    override func setUpWithError() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
    }

    func testEncryptedKeyConnectsAndTheRemoteStatusIsHostbooks() throws {
        let bed = try SSHTestBed()
        let pub = try bed.importKey("laptop")
        let sshd = try PrivateSSHD(authorizedKeys: [pub])
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "laptop")
        try bed.trust(sshd)
        let r = try bed.ssh(["web", "echo connected as $(id -un); exit 7"])
        XCTAssertEqual(r.status, 7, r.stderr + sshd.log)
        XCTAssertEqual(r.stdout, "connected as root\n")
        XCTAssertTrue(sshd.log.contains("Accepted publickey for root"), sshd.log)
        // Everything after HOST goes to ssh unchanged, options included.
        let quiet = try bed.ssh(["web", "-o", "LogLevel=QUIET", "-T", "echo", "a", "--db", "--no-input", "--json"])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(quiet.stdout, "a --db --no-input --json\n")
        try bed.assertNothingLeft()
    }

    func testSnippetRunsByteForByte() throws {
        let bed = try SSHTestBed()
        let pub = try bed.importKey("k")
        let sshd = try PrivateSSHD(authorizedKeys: [pub])
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k")
        try bed.trust(sshd)
        try bed.fx.ok("snippets", "add", "quoting", "--command", #"printf '[%s]' "two  spaces" '$HOME' \*; exit 3"#)
        let r = try bed.ssh(["--snippet", "quoting", "web"])
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertEqual(r.stdout, "[two  spaces][$HOME][*]")
        let missing = try bed.ssh(["--snippet", "nope", "web"])
        XCTAssertEqual(missing.status, 4)
        XCTAssertEqual(missing.stderr, "hostbook: no snippet named 'nope'\nRun 'hostbook snippets list' to see the snippets.\n")
    }

    /// A snippet that begins with '-' is the remote command, never an option of the local
    /// ssh (ssh goes on parsing options after the destination until `--`).
    func testASnippetBeginningWithADashIsNeverALocalOption() throws {
        let bed = try SSHTestBed()
        let pub = try bed.importKey("k")
        let sshd = try PrivateSSHD(authorizedKeys: [pub])
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k")
        try bed.trust(sshd)
        let proof = bed.fx.dir.file("ran-locally")
        try bed.fx.ok("snippets", "add", "dash", "--command", "-oProxyCommand=sh -c 'id > \(proof)'")
        let r = try bed.ssh(["--snippet", "dash", "web"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: proof), "the snippet ran on the local machine as a ProxyCommand")
        // It reached the server as the command: the login happened, and the remote shell,
        // not ssh (255), refused the word.
        XCTAssertTrue(sshd.log.contains("Accepted publickey"), sshd.log)
        XCTAssertNotEqual(r.status, 0, r.stderr)
        XCTAssertNotEqual(r.status, 255, r.stderr)
        // With the user's own options after HOST it is still the command.
        let t = try bed.ssh(["--snippet", "dash", "web", "-T"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: proof))
        XCTAssertNotEqual(t.status, 0, t.stderr)
        XCTAssertNotEqual(t.status, 255, t.stderr)
        try bed.assertNothingLeft()
    }

    /// The vault is read while ssh starts; when it cannot be read, ssh is stopped and the
    /// vault's error is the outcome (exit 1), not ssh's status.
    func testAnUnreachableVaultIsExit1AndStopsSSH() throws {
        let bed = try SSHTestBed()
        let pub = try bed.importKey("k")
        let sshd = try PrivateSSHD(authorizedKeys: [pub])
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k")
        try bed.trust(sshd)
        let r = try bed.fx.run(["ssh", "web", "echo must-not-run"], removing: ["DBUS_SESSION_BUS_ADDRESS"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.hasPrefix("hostbook: cannot read the private key of 'k': "), r.stderr)
        try bed.assertNothingLeft()
    }

    func testChangedKeyIsRefusedBySSHAndNotReplaced() throws {
        let bed = try SSHTestBed()
        let pub = try bed.importKey("k")
        let sshd = try PrivateSSHD(authorizedKeys: [pub])
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k")
        // Trust another key of the same type for the host: the server's key is "changed".
        let other = try TemporaryDirectory()
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-f", other.file("k")]).status, 0)
        let otherKey = try String(contentsOfFile: other.file("k.pub"), encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        try bed.fx.ok("known-hosts", "approve", "127.0.0.1", "--port", String(sshd.port), "--key", otherKey, "--yes")
        let before = try bed.fx.run("known-hosts", "list", "--json").stdout

        let r = try bed.ssh(["web", "echo must-not-run"])
        XCTAssertEqual(r.status, 255)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("REMOTE HOST IDENTIFICATION HAS CHANGED"), r.stderr)
        XCTAssertEqual(try bed.fx.run("known-hosts", "list", "--json").stdout, before, "nothing was replaced")
        try bed.assertNothingLeft()
    }

    func testUnknownKeyIsRefusedWithoutATerminal() throws {
        let bed = try SSHTestBed()
        let pub = try bed.importKey("k")
        let sshd = try PrivateSSHD(authorizedKeys: [pub])
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k")
        for extra in [[], ["--no-input"]] {
            let r = try bed.fx.run(extra + ["ssh", "web", "echo must-not-run"])
            XCTAssertEqual(r.status, 255)
            XCTAssertEqual(r.stdout, "")
            XCTAssertTrue(r.stderr.contains("is not known and"), r.stderr)
            XCTAssertTrue(r.stderr.contains("approve it with 'hostbook known-hosts scan web'"), r.stderr)
        }
        XCTAssertEqual(try bed.fx.run("known-hosts", "list", "--json").stdout, "[]\n", "nothing was trusted")
        try bed.assertNothingLeft()
    }

    func testUnknownKeyIsApprovedOnATerminalAndRecorded() throws {
        guard ScriptedTerminal.available else { throw XCTSkip("script(1) is missing") }
        let bed = try SSHTestBed()
        let pub = try bed.importKey("k")
        let sshd = try PrivateSSHD(authorizedKeys: [pub])
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k")
        let fingerprint = try ToolProcess.sshKeygen(["-l", "-f", sshd.hostKeyFiles["ed25519"]! + ".pub"]).stdout.split(separator: " ")[1]
        let terminal = try ScriptedTerminal(["--db", bed.fx.db, "ssh", "web", "echo approved-and-in"], fixture: bed.fx)
        terminal.expect("ED25519 key fingerprint is \(fingerprint).")
        terminal.expect("Are you sure you want to trust this key (yes/no/[fingerprint])? ")
        terminal.send("yes")
        terminal.expect("approved-and-in")
        XCTAssertEqual(terminal.finish(), 0, terminal.transcript + sshd.log)
        let list = try bed.fx.run("known-hosts", "list")
        XCTAssertTrue(list.stdout.contains(String(fingerprint)), list.stdout)
        let history = try bed.fx.run("known-hosts", "history", "127.0.0.1", "--json")
        let events = try XCTUnwrap(try JSONSerialization.jsonObject(with: history.stdoutBytes) as? [[String: Any]], history.stderr)
        XCTAssertEqual(events.map { "\($0["event"] ?? "")|\($0["source"] ?? "")|\($0["fingerprint"] ?? "")" }, ["approved|tofu|\(fingerprint)"],
                       "the approval is in the audit trail")
        // Trusted now: no prompt, no terminal needed.
        XCTAssertEqual(try bed.ssh(["web", "true"]).status, 0)
    }

    func testJumpHostWithItsOwnKeyUserAndHostKey() throws {
        let bed = try SSHTestBed()
        let gateKey = try bed.importKey("gate-key")
        let innerKey = try bed.importKey("inner-key", type: "ecdsa")
        // Each server accepts only its own hop's key.
        let gate = try PrivateSSHD(hostKeyTypes: ["ed25519"], authorizedKeys: [gateKey])
        let inner = try PrivateSSHD(hostKeyTypes: ["ecdsa"], authorizedKeys: [innerKey])
        try bed.fx.ok("add", "gate", "--hostname", "127.0.0.1", "--port", String(gate.port), "--user", "root", "--key", "gate-key")
        try bed.fx.ok("add", "inner", "--hostname", "127.0.0.1", "--port", String(inner.port), "--user", "root",
                      "--key", "inner-key", "--jump", "gate")
        try bed.trust(gate)
        let innerHostKey = try inner.publicKeyTypeAndBlob("ecdsa")
        try bed.fx.ok("known-hosts", "approve", "127.0.0.1", "--port", String(inner.port), "--key", innerHostKey, "--yes")
        let r = try bed.ssh(["inner", "echo through the gate"])
        XCTAssertEqual(r.status, 0, r.stderr + gate.log + inner.log)
        XCTAssertEqual(r.stdout, "through the gate\n")
        XCTAssertTrue(gate.log.contains("Accepted publickey for root"), gate.log)
        XCTAssertTrue(inner.log.contains("Accepted publickey for root"), inner.log)
        // The jump hop checks its own host key: untrusting it stops the connection.
        try bed.fx.ok("known-hosts", "remove", "127.0.0.1", "--port", String(gate.port))
        let refused = try bed.ssh(["inner", "echo must-not-run"])
        XCTAssertEqual(refused.status, 255)
        XCTAssertTrue(refused.stderr.contains("hostbook known-hosts scan gate"), refused.stderr)
        try bed.assertNothingLeft()
    }
}
