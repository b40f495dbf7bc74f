// Plain ssh with the installed configuration (`ssh-config --install`) and the standing agent
// (`hostbook agent`), when something is in the way: the agent stopped or locked, the vault
// locked, the host key changed. ssh's own message names no hostbook command (or misleads:
// "UNPROTECTED PRIVATE KEY FILE" for the public key file); hostbook's KnownHostsCommand
// says what happened and the command that fixes it, and the agent's log says why it refused.
// Real ssh, ssh-add, sshd and the real binary.
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class PlainSSHHintsTests: XCTestCase {
    struct Setup {
        let bed: SSHTestBed
        let sshd: PrivateSSHD
        let userConfig: String
        let socket: String
    }

    /// A saved host 'dev' with the unencrypted key 'k' on a private sshd, its host key
    /// trusted unless `trust` is false, and the configuration installed.
    private func makeSetup(trust: Bool = true) throws -> Setup {
        let bed = try SSHTestBed()
        let keyPath = bed.fx.dir.file("k-key")
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", "k", "-f", keyPath]).status, 0)
        try bed.fx.ok("keys", "import", keyPath, "--name", "k")
        try FileManager.default.removeItem(atPath: keyPath)
        let sshd = try PrivateSSHD(authorizedKeys: [try String(contentsOfFile: keyPath + ".pub", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)])
        try bed.fx.ok("add", "dev", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k")
        if trust { try bed.trust(sshd) }
        let userConfig = bed.home + "/.ssh/config"
        try Data("# mine\n".utf8).write(to: URL(fileURLWithPath: userConfig))
        chmod(userConfig, 0o644)
        try bed.fx.ok("ssh-config", "--install")
        return Setup(bed: bed, sshd: sshd, userConfig: userConfig, socket: bed.runtime + "/hostbook/agent.sock")
    }

    /// `ssh -F ~/.ssh/config dev echo reached` as the account, without SSH_AUTH_SOCK (the
    /// installed IdentityAgent names the socket).
    private func plainSSH(_ s: Setup) throws -> Shell.Result {
        var env = s.bed.fx.environment
        env["CFG"] = s.userConfig
        return try Shell.run("unset SSH_AUTH_SOCK; exec ssh -F \"$CFG\" -o BatchMode=yes dev echo reached", environment: env, account: s.bed.fx.account)
    }

    private func sshAdd(_ s: Setup, _ flag: String) throws -> Shell.Result {
        let askpass = s.bed.fx.dir.file("askpass.sh")
        try Data("#!/bin/sh\necho lockpass\n".utf8).write(to: URL(fileURLWithPath: askpass))
        chmod(askpass, 0o755)
        var env = s.bed.fx.environment
        env.merge(["SSH_AUTH_SOCK": s.socket, "SSH_ASKPASS": askpass, "SSH_ASKPASS_REQUIRE": "force"]) { $1 }
        return try Shell.run("ssh-add \(flag)", environment: env, account: s.bed.fx.account)
    }

    func testAStoppedOrLockedAgentIsToldWithItsFixAndNeverAsAKeyFilesPermissions() throws {
        let s = try makeSetup()
        defer { s.sshd.stop() }

        // Stopped: what happened and how to start it; no permissions warning about the .pub.
        let stopped = try plainSSH(s)
        XCTAssertEqual(stopped.status, 255, stopped.stderr)
        XCTAssertEqual(stopped.stdout, "")
        XCTAssertTrue(stopped.stderr.hasPrefix(
            "hostbook: the hostbook agent is not running (nothing answers at \(s.socket)), so ssh gets no key 'k' for 'dev'\n"
            + "Start it with 'eval \"$(hostbook agent start)\"', then connect again.\n"), stopped.stderr)
        XCTAssertFalse(stopped.stderr.contains("UNPROTECTED"), stopped.stderr)
        XCTAssertFalse(stopped.stderr.contains("Permissions 0644"), stopped.stderr)
        XCTAssertFalse(stopped.stderr.contains(".pub"), stopped.stderr)

        // Locked (ssh-add -x): said, with the unlock command.
        XCTAssertEqual(try s.bed.fx.run(["agent", "start"]).status, 0)
        defer { _ = try? s.bed.fx.run(["agent", "stop"]) }
        XCTAssertEqual(try sshAdd(s, "-x").status, 0)
        let locked = try plainSSH(s)
        XCTAssertEqual(locked.status, 255, locked.stderr)
        XCTAssertTrue(locked.stderr.hasPrefix(
            "hostbook: the agent at \(s.socket) is locked (it offers no keys), so ssh gets no key 'k' for 'dev'\n"
            + "Unlock it with 'SSH_AUTH_SOCK=\(s.socket) ssh-add -X', then connect again.\n"), locked.stderr)
        XCTAssertFalse(locked.stderr.contains("UNPROTECTED"), locked.stderr)

        // The fix it names works, and a working connection says nothing of hostbook's.
        XCTAssertEqual(try sshAdd(s, "-X").status, 0)
        let reached = try plainSSH(s)
        XCTAssertEqual(reached.status, 0, reached.stderr + s.sshd.log)
        XCTAssertEqual(reached.stdout, "reached\n")
        XCTAssertFalse(reached.stderr.contains("hostbook:"), reached.stderr)
    }

    func testAChangedHostKeyIsExplainedRecordedAndTheNamedCommandAcceptsIt() throws {
        let s = try makeSetup(trust: false)
        defer { s.sshd.stop() }
        let port = String(s.sshd.port)
        // hostbook trusts another key for [127.0.0.1]:PORT than the server's.
        let other = s.bed.fx.dir.file("other-hostkey")
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-f", other]).status, 0)
        let otherLine = try String(contentsOfFile: other + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        try s.bed.fx.ok("known-hosts", "approve", "127.0.0.1", "--port", port, "--key", otherLine, "--yes")
        let otherFP = try fingerprint(otherLine, s.bed)
        let serverKey = try s.sshd.publicKeyTypeAndBlob()
        let serverFP = try fingerprint(serverKey, s.bed)
        XCTAssertEqual(try s.bed.fx.run(["agent", "start"]).status, 0)
        defer { _ = try? s.bed.fx.run(["agent", "stop"]) }

        let refused = try plainSSH(s)
        XCTAssertEqual(refused.status, 255, refused.stderr)
        XCTAssertTrue(refused.stderr.hasPrefix(
            "hostbook: the host key of '127.0.0.1' (port \(port)) has changed: hostbook trusts ssh-ed25519 \(otherFP), "
            + "the server offered the ED25519 key \(serverFP); ssh refuses it (see 'hostbook known-hosts history')\n"
            + "If the change is expected, accept the new key with 'hostbook known-hosts approve 127.0.0.1 --port \(port) "
            + "--key '\(serverKey)' --replace --fingerprint \(serverFP)'.\n"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("REMOTE HOST IDENTIFICATION HAS CHANGED"), "ssh's own warning stays")

        // The refusal is in the audit trail.
        let history = try XCTUnwrap(try s.bed.fx.json("known-hosts", "history", "127.0.0.1") as? [[String: Any]])
        let last = try XCTUnwrap(history.last)
        XCTAssertEqual(last["event"] as? String, "rejected")
        XCTAssertEqual(last["source"] as? String, "ssh")
        XCTAssertEqual(last["port"] as? Int, s.sshd.port)
        XCTAssertEqual(last["fingerprint"] as? String, serverFP)

        // The command the hint names, word for word, accepts the key; ssh then connects.
        try s.bed.fx.ok("known-hosts", "approve", "127.0.0.1", "--port", port, "--key", serverKey, "--replace", "--fingerprint", serverFP)
        let reached = try plainSSH(s)
        XCTAssertEqual(reached.status, 0, reached.stderr + s.sshd.log)
        XCTAssertEqual(reached.stdout, "reached\n")
    }

    func testALockedVaultIsTheLoggedReasonForTheRefusal() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
        let s = try makeSetup()
        defer { s.sshd.stop() }
        XCTAssertEqual(try s.bed.fx.run(["agent", "start"]).status, 0)
        defer { _ = try? s.bed.fx.run(["agent", "stop"]) }
        // Unlocked: ssh connects, and hostbook's lookup (which asked the agent) says nothing.
        let reached = try plainSSH(s)
        XCTAssertEqual(reached.status, 0, reached.stderr + s.sshd.log)
        XCTAssertEqual(reached.stdout, "reached\n")
        XCTAssertFalse(reached.stderr.contains("hostbook:"), reached.stderr)
        // A new agent (which holds no private key yet), and the account's own keyring
        // locked before it first needs the key.
        XCTAssertEqual(try s.bed.fx.run(["agent", "stop"]).status, 0)
        XCTAssertEqual(try s.bed.fx.run(["agent", "start"]).status, 0)
        let lock = try Shell.run("""
            gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets \
              --method org.freedesktop.Secret.Service.Lock "['/org/freedesktop/secrets/aliases/default']"
            """, environment: s.bed.fx.environment, account: s.bed.fx.account)
        XCTAssertEqual(lock.status, 0, lock.stderr)
        let refused = try plainSSH(s)
        XCTAssertEqual(refused.status, 255, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("agent refused operation"), refused.stderr)
        // ssh's own output says why, with the fix: the KnownHostsCommand asked the agent
        // (key-status@hostbook.io) during key exchange, before ssh authenticates.
        XCTAssertTrue(refused.stderr.hasPrefix(
            "hostbook: the agent cannot sign with key 'k' for 'dev', so ssh will say 'agent refused operation': "
            + "cannot read the private key of 'k': the default keyring of gnome-keyring-daemon is locked\n"
            + "Unlock it (log in to the desktop, or unlock the keyring in Seahorse) and try again.\n"), refused.stderr)
        XCTAssertEqual(refused.stderr.components(separatedBy: "hostbook:").count - 1, 1, refused.stderr)

        XCTAssertEqual(try s.bed.fx.run(["agent", "stop"]).status, 0)
        let log = try XCTUnwrap(try s.bed.fx.json("agent", "log") as? [[String: Any]])
        let last = try XCTUnwrap(log.last)
        XCTAssertEqual(last["outcome"] as? String, "refused")
        let reason = "cannot read the private key of 'k': the default keyring of gnome-keyring-daemon is locked; "
            + "Unlock it (log in to the desktop, or unlock the keyring in Seahorse) and try again."
        XCTAssertEqual(last["reason"] as? String, reason)
        let text = try s.bed.fx.ok("agent", "log")
        XCTAssertTrue(text.stdout.hasSuffix("\(last["at"] as? String ?? "?") refused: \(reason)\n"), text.stdout)
        // The status query itself is no row of the log: the signature before the lock, and
        // the refused one.
        XCTAssertEqual(log.map { $0["outcome"] as? String }, ["signed", "refused"], "\(log)")
    }

    /// The key's vault item gone (the keyring unlocked): ssh's output says so, with the fix.
    func testAKeyWhoseVaultItemIsGoneIsToldOnSSHsOutput() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
        let s = try makeSetup()
        defer { s.sshd.stop() }
        let clear = try Shell.run("secret-tool clear kind private-key", environment: s.bed.fx.environment, account: s.bed.fx.account)
        XCTAssertEqual(clear.status, 0, clear.stderr)
        XCTAssertEqual(try s.bed.fx.run(["agent", "start"]).status, 0)
        defer { _ = try? s.bed.fx.run(["agent", "stop"]) }
        let refused = try plainSSH(s)
        XCTAssertEqual(refused.status, 255, refused.stderr)
        XCTAssertTrue(refused.stderr.hasPrefix(
            "hostbook: the agent cannot sign with key 'k' for 'dev', so ssh will say 'agent refused operation': "
            + "the private key of 'k' is not in the vault\n"
            + "Run 'hostbook doctor' to check the vault, or import the key again.\n"), refused.stderr)
    }

    private func fingerprint(_ line: String, _ bed: SSHTestBed) throws -> String {
        let file = bed.fx.dir.file("fp-\(UUID().uuidString).pub")
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: file))
        return String(try ToolProcess.sshKeygen(["-l", "-f", file]).stdout.split(separator: " ")[1])
    }
}
