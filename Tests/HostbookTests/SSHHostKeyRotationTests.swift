// Host-key rotation end to end (issue 32): `hostbook ssh`, as the ordinary test account,
// against a real sshd that rotates RSA → RSA + Ed25519 → Ed25519 on the same port, with the
// real OpenSSH client run beside it as the oracle (its own known_hosts file, UpdateHostKeys
// yes). The rules themselves are HostStoreTests' HostKeyRotationTests, in-process.
import Foundation
import XCTest
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

final class SSHHostKeyRotationTests: XCTestCase {
    override func setUpWithError() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
    }

    func testRotationIsLearnedAsOpenSSHLearnsIt() throws {
        let bed = try SSHTestBed()
        let pub = try bed.importKey("k")
        // The oracle's own login key, a plain file (it runs as this process's user).
        let oracle = try TemporaryDirectory()
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", "oracle", "-f", oracle.file("id")]).status, 0)
        let oraclePub = try String(contentsOfFile: oracle.file("id.pub"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let sshd = try PrivateSSHD(hostKeyTypes: ["rsa", "ed25519"], serving: ["rsa"], authorizedKeys: [pub, oraclePub])
        defer { sshd.stop() }
        let port = String(sshd.port)
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", port, "--user", "root", "--key", "k")
        let rsa = try sshd.publicKeyTypeAndBlob("rsa"), ed = try sshd.publicKeyTypeAndBlob("ed25519")

        // A first connection to an unknown host teaches nothing.
        let first = try bed.fx.run(["--no-input", "ssh", "web", "true"])
        XCTAssertEqual(first.status, 255, first.stderr)
        XCTAssertEqual(try bed.fx.run("known-hosts", "list", "--json").stdout, "[]\n")

        // Approved: the RSA key, in hostbook and in the oracle's file.
        try bed.fx.ok("known-hosts", "approve", "127.0.0.1", "--port", port, "--key", rsa, "--yes")
        let knownHosts = oracle.file("known_hosts")
        try "[127.0.0.1]:\(port) \(rsa)\n".write(toFile: knownHosts, atomically: true, encoding: .utf8)
        func oracleLogin() throws {
            let r = try Tool.run("/usr/bin/ssh", sshd.sshOptions(knownHosts: knownHosts) + [
                "-o", "UpdateHostKeys=yes", "-o", "StrictHostKeyChecking=yes", "-o", "HashKnownHosts=no", "-o", "CheckHostIP=no",
                "-o", "IdentitiesOnly=yes", "-i", oracle.file("id"), "root@127.0.0.1", "true"])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        func oracleKeys() throws -> Set<String> {
            let text = try String(contentsOfFile: knownHosts, encoding: .utf8)
            return Set(text.split(separator: "\n").map { $0.split(separator: " ").dropFirst().prefix(2).joined(separator: " ") })
        }
        func hostbookKeys() throws -> Set<String> {
            let list = try bed.fx.run("known-hosts", "list", "--json")
            XCTAssertEqual(list.status, 0, list.stderr)
            let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
            return Set(entries.compactMap { $0["fingerprint"] as? String })
        }
        func fingerprint(_ key: String) throws -> String {
            let file = oracle.file("fp.pub")
            try (key + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            return try XCTUnwrap(ToolProcess.sshKeygen(["-l", "-f", file]).stdout.split(separator: " ").dropFirst().first).description
        }

        // The server adds an Ed25519 key: one login learns it, as OpenSSH does.
        try sshd.restart(serving: ["rsa", "ed25519"])
        let second = try bed.ssh(["web", "true"])
        XCTAssertEqual(second.status, 0, second.stderr + sshd.log)
        XCTAssertEqual(try hostbookKeys(), [try fingerprint(rsa), try fingerprint(ed)], second.stderr)
        XCTAssertTrue(second.stderr.contains("proved it holds the ED25519 key"), second.stderr)
        XCTAssertFalse(second.stderr.contains("client_input_hostkeys"), "the lines hostbook reads ssh's log for are not shown: \(second.stderr)")
        try oracleLogin()
        XCTAssertEqual(try oracleKeys(), [rsa, ed])

        // The server drops its RSA key: the next login is not refused, and RSA is retired.
        try sshd.restart(serving: ["ed25519"])
        let third = try bed.ssh(["web", "true"])
        XCTAssertEqual(third.status, 0, third.stderr + sshd.log)
        XCTAssertEqual(try hostbookKeys(), [try fingerprint(ed)], third.stderr)
        XCTAssertTrue(third.stderr.contains("no longer offers the ssh-rsa"), third.stderr)
        try oracleLogin()
        XCTAssertEqual(try oracleKeys(), [ed])

        // A server that announces a key it cannot prove (the RSA key again, whose private
        // half its host-key agent does not hold) ends its own session at the proof: it
        // teaches nothing, to hostbook as to OpenSSH.
        let agent = Process()
        agent.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-agent")
        agent.arguments = ["-D", "-a", oracle.file("agent.sock")]
        agent.standardOutput = FileHandle.nullDevice
        agent.standardError = FileHandle.nullDevice
        try agent.run()
        defer { agent.terminate(); agent.waitUntilExit() }
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: oracle.file("agent.sock")) { usleep(10_000) }
        let added = try Tool.run("/usr/bin/ssh-add", ["-q", try XCTUnwrap(sshd.hostKeyFiles["ed25519"])],
                                 environment: ["SSH_AUTH_SOCK": oracle.file("agent.sock"), "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(added.status, 0, added.stderr)
        try sshd.restart(serving: ["ed25519", "rsa"], hostKeyAgent: oracle.file("agent.sock"))
        let unproven = try bed.ssh(["web", "true"])
        XCTAssertTrue(sshd.waitForLog("agent sign failed"), sshd.log)
        XCTAssertEqual(try hostbookKeys(), [try fingerprint(ed)], unproven.stderr)
        XCTAssertFalse(unproven.stderr.contains("now trusted"), unproven.stderr)
        XCTAssertEqual(unproven.status, 255, unproven.stderr)
        XCTAssertTrue(unproven.stderr.contains("announced a host key it cannot prove and ended the session when ssh asked for the proof"), unproven.stderr)
        XCTAssertTrue(unproven.stderr.contains("check sshd's HostKey lines"), unproven.stderr)
        let oracleRun = try Tool.run("/usr/bin/ssh", sshd.sshOptions(knownHosts: knownHosts) + [
            "-o", "UpdateHostKeys=yes", "-o", "StrictHostKeyChecking=yes", "-o", "HashKnownHosts=no", "-o", "CheckHostIP=no",
            "-o", "IdentitiesOnly=yes", "-i", oracle.file("id"), "root@127.0.0.1", "true"])
        XCTAssertNotEqual(oracleRun.status, 0, "the server ends the oracle's session too")
        XCTAssertEqual(try oracleKeys(), [ed])

        // Every change is in the history with source rotation; nothing else was written.
        let history = try bed.fx.run("known-hosts", "history", "--json")
        let events = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])
        let rotation = events.filter { $0["source"] as? String == "rotation" }.compactMap { $0["event"] as? String }
        XCTAssertEqual(rotation, ["learned", "retired"], history.stdout)
        try bed.assertNothingLeft()
    }

    /// A first use approved on the terminal learns the other keys the server proves in that
    /// session, as OpenSSH's `StrictHostKeyChecking ask` does (the oracle: OpenSSH asked
    /// through an askpass that says yes, with an empty known_hosts file).
    func testFirstUseApprovedOnTheTerminalLearnsTheOtherKeys() throws {
        guard ScriptedTerminal.available else { throw XCTSkip("script(1) is missing") }
        let bed = try SSHTestBed()
        let pub = try bed.importKey("k")
        let oracle = try TemporaryDirectory()
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", "oracle", "-f", oracle.file("id")]).status, 0)
        let oraclePub = try String(contentsOfFile: oracle.file("id.pub"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let sshd = try PrivateSSHD(hostKeyTypes: ["ed25519", "rsa"], authorizedKeys: [pub, oraclePub])
        defer { sshd.stop() }
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k")
        func fingerprint(_ type: String) throws -> String {
            String(try ToolProcess.sshKeygen(["-l", "-f", try XCTUnwrap(sshd.hostKeyFiles[type]) + ".pub"]).stdout.split(separator: " ")[1])
        }

        let terminal = try ScriptedTerminal(["--db", bed.fx.db, "ssh", "web", "echo first-in"], fixture: bed.fx)
        terminal.expect("ED25519 key fingerprint is \(try fingerprint("ed25519")).")
        terminal.expect("Are you sure you want to trust this key (yes/no/[fingerprint])? ")
        terminal.send("yes")
        terminal.expect("first-in")
        XCTAssertEqual(terminal.finish(), 0, terminal.transcript + sshd.log)
        XCTAssertTrue(terminal.transcript.contains("now trusted (host-key rotation)"), terminal.transcript)
        let list = try bed.fx.run("known-hosts", "list", "--json")
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]], list.stderr)
        XCTAssertEqual(Set(entries.compactMap { $0["fingerprint"] as? String }), [try fingerprint("ed25519"), try fingerprint("rsa")], terminal.transcript)
        let history = try bed.fx.run("known-hosts", "history", "--json")
        let events = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(events.map { "\($0["event"] ?? "")|\($0["source"] ?? "")" }, ["approved|tofu", "learned|rotation"], history.stdout)

        // OpenSSH: the same first use, accepted at its own question, learns the same keys.
        let askpass = oracle.file("askpass")
        try "#!/bin/sh\necho yes\n".write(toFile: askpass, atomically: true, encoding: .utf8)
        chmod(askpass, 0o700)
        let knownHosts = oracle.file("known_hosts")
        try "".write(toFile: knownHosts, atomically: true, encoding: .utf8)
        // Not sshd.sshOptions: its BatchMode=yes would make ssh refuse its own question.
        let r = try Tool.run("/usr/bin/setsid", ["-w", "/usr/bin/ssh", "-F", "none", "-p", String(sshd.port), "-o", "IdentityAgent=none",
            "-o", "UserKnownHostsFile=\(knownHosts)", "-o", "GlobalKnownHostsFile=/dev/null", "-o", "UpdateHostKeys=yes", "-o", "StrictHostKeyChecking=ask", "-o", "HashKnownHosts=no",
            "-o", "CheckHostIP=no", "-o", "IdentitiesOnly=yes", "-i", oracle.file("id"), "root@127.0.0.1", "true"],
            environment: ["SSH_ASKPASS": askpass, "SSH_ASKPASS_REQUIRE": "force", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let oracleKeys = try String(contentsOfFile: knownHosts, encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ")[1] }
        XCTAssertEqual(Set(oracleKeys), ["ssh-ed25519", "ssh-rsa"])
        try bed.assertNothingLeft()
    }

    /// In a first-use session ssh sends every prompt to hostbook's askpass; one the session
    /// does not own (a password typed by hand) is asked on the terminal, with echo off.
    func testAFirstUseSessionAsksAPasswordTypedByHandOnTheTerminal() throws {
        guard ScriptedTerminal.available else { throw XCTSkip("script(1) is missing") }
        let bed = try SSHTestBed()
        guard let account = bed.fx.account else { throw XCTSkip("needs root, to give the test account a password (as CI runs)") }
        let password = "typed-\(UUID().uuidString)"
        let set = try ToolProcess.run(URL(fileURLWithPath: "/usr/sbin/chpasswd"), [], stdin: Data("\(account.name):\(password)\n".utf8))
        XCTAssertEqual(set.status, 0, set.stderr)
        let sshd = try PrivateSSHD(config: ["PasswordAuthentication yes"])
        defer { sshd.stop() }
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", account.name)
        let terminal = try ScriptedTerminal(["--db", bed.fx.db, "ssh", "web", "echo typed-in"], fixture: bed.fx)
        terminal.expect("Are you sure you want to trust this key (yes/no/[fingerprint])? ")
        terminal.send("yes")
        terminal.expect("\(account.name)@127.0.0.1's password: ")
        terminal.send(password)
        terminal.expect("typed-in")
        XCTAssertEqual(terminal.finish(), 0, terminal.transcript + sshd.log)
        XCTAssertFalse(terminal.transcript.contains(password), "the password is not echoed")
        XCTAssertTrue(sshd.log.contains("Accepted password for \(account.name)"), sshd.log)
        try bed.assertNothingLeft()
    }
}
