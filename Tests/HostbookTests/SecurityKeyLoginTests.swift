// Security keys (sk-*) end to end, with OpenSSH's own software authenticator (sk-dummy.so,
// Debian's openssh-tests) as the provider: keys made by ssh-keygen -w and imported log in
// through `hostbook ssh` and, with the installed configuration, through the standing agent;
// a git commit signed with one verifies. `keys generate --type ed25519-sk` and a missing
// authenticator or provider run in-process: HostbookLogicTests/SecurityKeyGenerateLogicTests.
import Foundation
import TestSupport
import XCTest

final class SecurityKeyLoginTests: XCTestCase {
    static let skDummy = "/usr/lib/openssh/regress/misc/sk-dummy/sk-dummy.so"

    override func setUpWithError() throws {
        guard HostbookFixture.vaultAvailable else { throw XCTSkip("needs a Secret Service: run under scripts/with-keyring") }
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.skDummy), "openssh-tests is not installed (scripts/setup)")
    }

    private func bed() throws -> SSHTestBed {
        let bed = try SSHTestBed()
        bed.fx.environment["SSH_SK_PROVIDER"] = Self.skDummy
        return bed
    }

    /// ssh-keygen -t TYPE -w sk-dummy.so as the test's user, imported as `name`; its public line.
    private func importSecurityKey(_ bed: SSHTestBed, _ name: String, type: String) throws -> String {
        let path = bed.fx.dir.file("\(name)-sk")
        let made = try bed.fx.tool("/usr/bin/ssh-keygen", ["-q", "-t", type, "-w", Self.skDummy, "-N", "", "-C", name, "-f", path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let imported = try bed.fx.run(["keys", "import", path, "--name", name])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        return try String(contentsOfFile: path + ".pub", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testSecurityKeysLogInThroughHostbookSSHAndTheStandingAgent() throws {
        let bed = try bed()
        let ed = try importSecurityKey(bed, "ed-sk", type: "ed25519-sk")
        let ec = try importSecurityKey(bed, "ec-sk", type: "ecdsa-sk")
        let sshd = try PrivateSSHD(authorizedKeys: [ed, ec])
        defer { sshd.stop() }
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "ed-sk")
        try bed.trust(sshd)

        // hostbook ssh: its session agent signs through the provider.
        let first = try bed.ssh(["web", "echo reached"])
        XCTAssertEqual(first.status, 0, first.stderr + sshd.log)
        XCTAssertEqual(first.stdout, "reached\n")
        XCTAssertTrue(sshd.log.contains("Accepted publickey for root from 127.0.0.1") && sshd.log.contains("ED25519-SK"), sshd.log)
        try bed.fx.ok("edit", "web", "--key", "ec-sk")
        let second = try bed.ssh(["web", "echo reached"])
        XCTAssertEqual(second.status, 0, second.stderr + sshd.log)
        XCTAssertTrue(sshd.log.contains("ECDSA-SK"), sshd.log)
        // On a terminal, the requester is told to touch the key, naming it and the destination.
        if ScriptedTerminal.available {
            let t = try ScriptedTerminal(["--db", bed.fx.db, "ssh", "web", "-o", "BatchMode=yes", "echo reached"], fixture: bed.fx)
            t.expect("hostbook: touch your security key for 'ec-sk' → web")
            t.expect("reached")
            XCTAssertEqual(t.finish(), 0, t.transcript)
        }

        // A provider that is not there: hostbook ssh says why in one line and its hint.
        let gone = bed.fx.dir.file("gone.so")
        let failed = try bed.fx.run(["ssh", "web", "echo reached"], bytes: nil, environment: ["SSH_SK_PROVIDER": gone])
        XCTAssertNotEqual(failed.status, 0)
        XCTAssertTrue(failed.stderr.contains("hostbook: cannot load the security-key provider \(gone): "), failed.stderr)

        // Plain ssh with the installed configuration: the standing agent signs.
        XCTAssertEqual(try bed.fx.run(["ssh-config", "--install"]).status, 0)
        let started = try bed.fx.run(["agent", "start"])
        XCTAssertEqual(started.status, 0, started.stderr)
        var stopped = false
        defer { if !stopped { _ = try? bed.fx.run(["agent", "stop"]) } }
        var env = bed.fx.environment
        env["CFG"] = bed.home + "/.ssh/config"
        let plain = try Shell.run("unset SSH_AUTH_SOCK; ssh -F \"$CFG\" -o BatchMode=yes web echo reached", environment: env, account: bed.fx.account)
        XCTAssertEqual(plain.status, 0, plain.stderr + sshd.log)
        XCTAssertEqual(plain.stdout, "reached\n")
        XCTAssertEqual(try bed.fx.run(["agent", "stop"]).status, 0)
        stopped = true
        let log = try bed.fx.json("agent", "log") as? [[String: Any]] ?? []
        XCTAssertEqual(log.map { "\($0["key"] ?? "")→\($0["destination"] ?? "")" }, ["ec-sk→web"], "\(log)")

        // An agent whose provider cannot be loaded refuses, and its log says why.
        let broken = try bed.fx.run(["agent", "start"], bytes: nil, environment: ["SSH_SK_PROVIDER": gone])
        XCTAssertEqual(broken.status, 0, broken.stderr)
        let refused = try Shell.run("unset SSH_AUTH_SOCK; ssh -F \"$CFG\" -o BatchMode=yes web echo reached", environment: env, account: bed.fx.account)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertEqual(try bed.fx.run(["agent", "stop"]).status, 0)
        let last = (try bed.fx.json("agent", "log") as? [[String: Any]] ?? []).last ?? [:]
        XCTAssertEqual(last["outcome"] as? String, "refused", "\(last)")
        XCTAssertTrue((last["reason"] as? String ?? "").hasPrefix("cannot load the security-key provider "), "\(last)")
    }

    func testACommitSignedWithASecurityKeyVerifies() throws {
        let bed = try bed()
        bed.fx.environment["XDG_CONFIG_HOME"] = bed.home + "/conf"
        bed.fx.environment["GIT_AUTHOR_NAME"] = "Test Author"
        bed.fx.environment["GIT_COMMITTER_NAME"] = "Test Author"
        _ = try importSecurityKey(bed, "signer", type: "ed25519-sk")
        let env = bed.fx.environment.merging(["DIR": bed.fx.dir.path]) { $1 }
        XCTAssertEqual(try Shell.run("git init -q \"$DIR/repo\"", environment: env, account: bed.fx.account).status, 0)
        let setup = try bed.fx.run(["git", "setup", "signer", "--repo", bed.fx.dir.file("repo"), "--email", "dev@example.com"])
        XCTAssertEqual(setup.status, 0, setup.stderr)
        let started = try bed.fx.run(["agent", "start"])
        XCTAssertEqual(started.status, 0, started.stderr)
        defer { _ = try? bed.fx.run(["agent", "stop"]) }
        let socket = String((started.stdout.split(separator: "\n").first ?? "").dropFirst("SSH_AUTH_SOCK=".count).dropLast("; export SSH_AUTH_SOCK;".count))
        let withAgent = env.merging(["SSH_AUTH_SOCK": socket]) { $1 }
        let commit = try Shell.run("cd \"$DIR/repo\" && git commit -q -S --allow-empty -m signed", environment: withAgent, account: bed.fx.account)
        XCTAssertEqual(commit.status, 0, commit.stderr)
        let log = try Shell.run("cd \"$DIR/repo\" && git log --show-signature -1", environment: withAgent, account: bed.fx.account)
        XCTAssertEqual(log.status, 0, log.stderr)
        XCTAssertTrue(log.stdout.contains("Good \"git\" signature for dev@example.com with ED25519-SK key"), log.stdout + log.stderr)
    }
}
