// `hostbook agent`: the standing agent against the real ssh-add and ssh, and a private
// sshd. The agent is started with `agent start` in a private XDG_RUNTIME_DIR and stopped
// by every test; nothing may be left in that folder afterwards.
// What `ssh-config --install` reports while the agent runs or not runs in-process:
// HostbookLogicTests/SSHConfigInstallReportLogicTests.
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class AgentCommandTests: XCTestCase {
    /// A bed with unencrypted keys made by ssh-keygen and imported; returns public lines.
    private func importKeys(_ bed: SSHTestBed, _ names: [String]) throws -> [String: String] {
        var lines: [String: String] = [:]
        for name in names {
            let path = bed.fx.dir.file("\(name)-key")
            XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path]).status, 0)
            let r = try bed.fx.run(["keys", "import", path, "--name", name])
            XCTAssertEqual(r.status, 0, r.stderr)
            try FileManager.default.removeItem(atPath: path)
            lines[name] = try String(contentsOfFile: path + ".pub", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return lines
    }

    private func startAgent(_ bed: SSHTestBed) throws -> String {
        let r = try bed.fx.run(["agent", "start"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, r.stdout)
        XCTAssertTrue(lines[0].hasPrefix("SSH_AUTH_SOCK=") && lines[0].hasSuffix("; export SSH_AUTH_SOCK;"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("SSH_AGENT_PID="), lines[1])
        let socket = String(lines[0].dropFirst("SSH_AUTH_SOCK=".count).dropLast("; export SSH_AUTH_SOCK;".count))
        XCTAssertEqual(socket, bed.runtime + "/hostbook/agent.sock")
        var info = stat()
        XCTAssertEqual(lstat(socket, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        XCTAssertEqual(lstat(bed.runtime + "/hostbook", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        return socket
    }

    private func stopAgent(_ bed: SSHTestBed, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try bed.fx.run(["agent", "stop"])
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        XCTAssertEqual(try bed.fx.run(["agent", "status"]).status, 1, file: file, line: line)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: bed.runtime + "/hostbook")) ?? []
        XCTAssertEqual(left, [], "left in the agent's folder", file: file, line: line)
    }

    private func shell(_ bed: SSHTestBed, _ script: String, _ env: [String: String] = [:]) throws -> Shell.Result {
        var environment = bed.fx.environment
        for (k, v) in env { environment[k] = v }
        return try Shell.run(script, environment: environment, account: bed.fx.account)
    }

    func testSSHAddListsSignsRefusesChangesLocksAndLogs() throws {
        let bed = try SSHTestBed()
        let keys = try importKeys(bed, ["alpha", "beta"])
        let socket = try startAgent(bed)
        defer { try? stopAgent(bed) }
        // A second start finds it and prints the same lines.
        let again = try bed.fx.run(["agent", "start"])
        XCTAssertEqual(again.status, 0)
        XCTAssertTrue(again.stdout.hasPrefix("SSH_AUTH_SOCK=\(socket); export SSH_AUTH_SOCK;"))
        let status = try bed.fx.json("agent", "status") as? [String: Any]
        XCTAssertEqual(status?["running"] as? Bool, true)
        XCTAssertEqual(status?["socket"] as? String, socket)

        // ssh-add -x / -X read the passphrase through SSH_ASKPASS (no terminal here).
        let askpass = bed.fx.dir.file("askpass.sh")
        try Data("#!/bin/sh\necho \"$LOCKPW\"\n".utf8).write(to: URL(fileURLWithPath: askpass))
        chmod(askpass, 0o700)
        let env = ["SSH_AUTH_SOCK": socket, "SSH_ASKPASS": askpass, "SSH_ASKPASS_REQUIRE": "force", "DIR": bed.fx.dir.path]
        let listed = try shell(bed, "ssh-add -L", env)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let served = Set(listed.stdout.split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") })
        XCTAssertEqual(served, Set(keys.values.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }))
        XCTAssertTrue(try shell(bed, "ssh-add -l", env).stdout.contains("alpha (ED25519)"))

        // Read-only: -D and -d fail and nothing changes.
        let removeAll = try shell(bed, "ssh-add -D", env)
        XCTAssertEqual(removeAll.status, 1)
        XCTAssertTrue(removeAll.stderr.contains("Failed to remove all identities"), removeAll.stderr)
        XCTAssertEqual(try shell(bed, "ssh-add -d \"$DIR/alpha-key.pub\"", env).status, 1)
        XCTAssertEqual(try shell(bed, "ssh-add -L", env).stdout, listed.stdout)

        // -T signs through the agent and verifies.
        let signed = try shell(bed, "ssh-add -T \"$DIR/alpha-key.pub\"", env)
        XCTAssertEqual(signed.status, 0, signed.stderr)

        // -x locks: nothing listed, nothing signed; -X with another passphrase fails, with the same unlocks.
        XCTAssertEqual(try shell(bed, "LOCKPW=secret ssh-add -x", env).status, 0)
        let locked = try shell(bed, "ssh-add -l", env)
        XCTAssertEqual(locked.status, 1)
        XCTAssertTrue(locked.stdout.contains("no identities"), locked.stdout)
        XCTAssertEqual(try shell(bed, "ssh-add -T \"$DIR/alpha-key.pub\"", env).status, 1)
        XCTAssertEqual(try shell(bed, "LOCKPW=wrong ssh-add -X", env).status, 1)
        XCTAssertEqual(try shell(bed, "LOCKPW=secret ssh-add -X", env).status, 0)
        XCTAssertEqual(try shell(bed, "ssh-add -T \"$DIR/beta-key.pub\"", env).status, 0)

        // The log is written in the background; stopping the agent writes what it holds.
        try stopAgent(bed)
        let log = try bed.fx.json("agent", "log", "--json") as? [[String: Any]] ?? []
        // The signature asked of the locked agent is in the log as refused.
        XCTAssertEqual(log.map { $0["key"] as? String }, ["alpha", "alpha", "beta"])
        XCTAssertEqual(log.map { $0["outcome"] as? String }, ["signed", "refused", "signed"])
        XCTAssertEqual(log.first?["client_executable"] as? String, "/usr/bin/ssh-add")
        XCTAssertEqual(log.first?["forwarded"] as? Bool, false)
        XCTAssertTrue((log.first?["key_fingerprint"] as? String ?? "").hasPrefix("SHA256:"))
        // How each was decided: the rules refused the locked agent's, the others needed no approval.
        XCTAssertEqual(log.map { $0["decision"] as? String ?? "-" }, ["no-confirm", "-", "no-confirm"])
        XCTAssertTrue(try bed.fx.run(["agent", "log"]).stdout.contains("signed   no-confirm  beta"))
    }

    func testHundredConcurrentClientsAreAllAnswered() throws {
        let bed = try SSHTestBed()
        _ = try importKeys(bed, ["one"])
        let socket = try startAgent(bed)
        defer { try? stopAgent(bed) }
        let r = try shell(bed, """
            cd "$DIR" && for i in $(seq 100); do (ssh-add -l > "l.$i" 2>&1; echo $? > "s.$i") & done; wait
            cat s.* | sort | uniq -c; grep -l "one (ED25519)" l.* | wc -l
            """, ["SSH_AUTH_SOCK": socket, "DIR": bed.fx.dir.path])
        XCTAssertEqual(r.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }, ["100 0", "100"], r.stderr)
    }

    /// Eight keys in the agent, no IdentitiesOnly, sshd with MaxAuthTries 2: the saved host
    /// still connects (only its key is offered); a server hostbook does not know gets every
    /// key and fails.
    func testSavedHostGetsOnlyItsKeyUnderMaxAuthTries() throws {
        let bed = try SSHTestBed()
        let keys = try importKeys(bed, (1...8).map { "k\($0)" })
        let sshd = try PrivateSSHD(config: ["MaxAuthTries 2"], authorizedKeys: [keys["k8"]!])
        defer { sshd.stop() }
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k8")
        let knownHosts = bed.fx.dir.file("kh")
        try Data("[127.0.0.1]:\(sshd.port) \(try sshd.publicKeyTypeAndBlob())\n".utf8).write(to: URL(fileURLWithPath: knownHosts))
        let socket = try startAgent(bed)
        defer { try? stopAgent(bed) }
        let script = "ssh -F none -p \(sshd.port) -o BatchMode=yes -o UserKnownHostsFile=\(knownHosts) -o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes root@127.0.0.1 echo reached"
        // Unknown to hostbook: every key is offered and MaxAuthTries ends it.
        let unknown = try shell(bed, script, ["SSH_AUTH_SOCK": socket])
        XCTAssertEqual(unknown.status, 255, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("Too many authentication failures"), unknown.stderr)
        // Saved and trusted: only k8.
        try bed.trust(sshd)
        let saved = try shell(bed, script, ["SSH_AUTH_SOCK": socket])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        XCTAssertEqual(saved.stdout, "reached\n")
        try stopAgent(bed)
        let log = try bed.fx.json("agent", "log", "--json") as? [[String: Any]] ?? []
        let last = log.last ?? [:]
        XCTAssertEqual(last["key"] as? String, "k8")
        XCTAssertEqual(last["outcome"] as? String, "signed")
        XCTAssertEqual(last["destination"] as? String, "web")
        XCTAssertEqual(last["client_executable"] as? String, "/usr/bin/ssh")
    }

    /// ssh -A to the sshd, then ssh back to it from the remote side with the forwarded
    /// agent: refused by default, allowed once the host allows agent forwarding.
    func testForwardedUseRefusedUntilTheHostAllowsIt() throws {
        let bed = try SSHTestBed()
        let keys = try importKeys(bed, ["fw"])
        let sshd = try PrivateSSHD(authorizedKeys: [keys["fw"]!])
        defer { sshd.stop() }
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "fw")
        try bed.trust(sshd)
        let knownHosts = bed.fx.dir.file("kh")
        try Data("[127.0.0.1]:\(sshd.port) \(try sshd.publicKeyTypeAndBlob())\n".utf8).write(to: URL(fileURLWithPath: knownHosts))
        let socket = try startAgent(bed)
        defer { try? stopAgent(bed) }
        let options = "-F none -p \(sshd.port) -o BatchMode=yes -o UserKnownHostsFile=\(knownHosts) -o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes"
        let script = "ssh -A \(options) root@127.0.0.1 'ssh \(options) root@127.0.0.1 echo inner'"
        let refused = try shell(bed, script, ["SSH_AUTH_SOCK": socket])
        XCTAssertNotEqual(refused.status, 0, refused.stdout)
        XCTAssertFalse(refused.stdout.contains("inner"))

        try bed.fx.ok("edit", "web", "--allow-agent-forwarding")
        let allowed = try shell(bed, script, ["SSH_AUTH_SOCK": socket])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
        XCTAssertEqual(allowed.stdout, "inner\n")

        try bed.fx.ok("edit", "web", "--no-agent-forwarding")
        XCTAssertNotEqual(try shell(bed, script, ["SSH_AUTH_SOCK": socket]).status, 0)

        // The log is written in the background; stopping the agent writes what it holds.
        try stopAgent(bed)
        let log = try bed.fx.json("agent", "log", "--json") as? [[String: Any]] ?? []
        XCTAssertTrue(log.contains { $0["outcome"] as? String == "refused" && $0["forwarded"] as? Bool == true && $0["destination"] as? String == "web" }, "\(log)")
        XCTAssertTrue(log.contains { $0["outcome"] as? String == "signed" && $0["forwarded"] as? Bool == true }, "\(log)")
    }
}

final class SSHConfigCommandTests: XCTestCase {
    /// --install, then plain ssh, scp and rsync through a jump host with keys from the
    /// standing agent and host keys from hostbook; --uninstall leaves ~/.ssh/config as it was.
    func testInstallPlainSSHScpRsyncThroughAJumpHostThenUninstall() throws {
        let bed = try SSHTestBed()
        let keyPath = bed.fx.dir.file("k-key")
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", "k", "-f", keyPath]).status, 0)
        XCTAssertEqual(try bed.fx.run(["keys", "import", keyPath, "--name", "k"]).status, 0)
        try FileManager.default.removeItem(atPath: keyPath)
        let sshd = try PrivateSSHD(authorizedKeys: [try String(contentsOfFile: keyPath + ".pub", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)])
        defer { sshd.stop() }
        try bed.fx.ok("add", "jump", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k")
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "k", "--jump", "jump")
        try bed.trust(sshd)
        let userConfig = bed.home + "/.ssh/config"
        let original = Data("# mine\nHost *\n    ServerAliveInterval 30\n".utf8)
        try original.write(to: URL(fileURLWithPath: userConfig))
        chmod(userConfig, 0o644)

        let printed = try bed.fx.run(["ssh-config"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertTrue(printed.stdout.contains("Host web\n"), printed.stdout)
        XCTAssertTrue(printed.stdout.contains("    ProxyJump jump\n"), printed.stdout)

        XCTAssertEqual(try bed.fx.run(["ssh-config", "--install"]).status, 0)
        let generated = bed.home + "/.config/hostbook/ssh_config"
        let installed = try Data(contentsOf: URL(fileURLWithPath: userConfig))
        XCTAssertEqual(installed, Data("Include \(generated)\n".utf8) + original)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: userConfig + ".hostbook-backup")), original)
        XCTAssertEqual(try bed.fx.run(["ssh-config", "--install"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: userConfig)), installed, "installing twice changes nothing")

        // ssh reads the passwd home's config, so the test names the file with -F.
        let resolved = try Shell.run("ssh -F \"$CFG\" -G web", environment: ["CFG": userConfig], account: bed.fx.account)
        XCTAssertTrue(resolved.stdout.contains("\nproxyjump jump\n"), resolved.stdout)
        XCTAssertTrue(resolved.stdout.contains("\nidentityagent \(bed.runtime)/hostbook/agent.sock\n"), resolved.stdout)
        XCTAssertTrue(resolved.stdout.contains("\nstricthostkeychecking true\n"), resolved.stdout)
        XCTAssertTrue(resolved.stdout.contains("\nserveraliveinterval 30\n"), "the user's own settings still apply")

        let start = try bed.fx.run(["agent", "start"])
        XCTAssertEqual(start.status, 0, start.stderr)
        defer { _ = try? bed.fx.run(["agent", "stop"]) }
        var env = bed.fx.environment
        env["CFG"] = userConfig
        env["DIR"] = bed.fx.dir.path
        // Without SSH_AUTH_SOCK: the installed IdentityAgent names the socket.
        let r = try Shell.run("""
            unset SSH_AUTH_SOCK
            ssh -F "$CFG" -o BatchMode=yes web echo reached || exit 11
            echo payload > "$DIR/up.txt"
            scp -F "$CFG" -o BatchMode=yes "$DIR/up.txt" web:"$DIR/scp-copy.txt" || exit 12
            rsync -e "ssh -F $CFG -o BatchMode=yes" "$DIR/up.txt" web:"$DIR/rsync-copy.txt" || exit 13
            cat "$DIR/scp-copy.txt" "$DIR/rsync-copy.txt"
            """, environment: env, account: bed.fx.account)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "reached\npayload\npayload\n")

        let doctor = try bed.fx.run(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("includes \(generated) first"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("\(generated) is current"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("agent: running"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("'ssh -G jump' resolves to hostbook's settings"), doctor.stdout)

        // The log is written in the background; stopping the agent writes what it holds.
        XCTAssertEqual(try bed.fx.run(["agent", "stop"]).status, 0)
        let log = try bed.fx.json("agent", "log") as? [[String: Any]] ?? []
        XCTAssertTrue(log.contains { $0["destination"] as? String == "jump, web" && $0["outcome"] as? String == "signed" }, "\(log)")

        XCTAssertEqual(try bed.fx.run(["ssh-config", "--uninstall"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: userConfig)), original, "restored byte for byte")
        XCTAssertFalse(FileManager.default.fileExists(atPath: generated))
    }
}
