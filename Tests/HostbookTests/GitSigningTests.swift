// Signing git commits with a saved key through the standing agent (`hostbook git setup`,
// `hostbook keys edit --namespace`, `hostbook keys allowed-signers`), with real git,
// ssh-keygen -Y, ssh and a private sshd as the oracles. The key is generated into the vault:
// no private key file exists on disk at any point.
// The allowed-signers file, git's configuration and the refusals of `git setup`, and
// `hostbook -Y sign` as ssh-keygen's interface, run in-process:
// HostbookLogicTests/GitSigningLogicTests.
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class GitSigningTests: XCTestCase {
    private func bed() throws -> SSHTestBed {
        try XCTSkipUnless(HostbookFixture.vaultAvailable, "needs a Secret Service (scripts/with-keyring)")
        let bed = try SSHTestBed()
        bed.fx.environment["XDG_CONFIG_HOME"] = bed.home + "/conf"
        bed.fx.environment["GIT_AUTHOR_NAME"] = "Test Author"
        bed.fx.environment["GIT_COMMITTER_NAME"] = "Test Author"
        return bed
    }

    private func shell(_ bed: SSHTestBed, _ script: String, _ env: [String: String] = [:]) throws -> Shell.Result {
        try Shell.run(script, environment: bed.fx.environment.merging(env.merging(["DIR": bed.fx.dir.path]) { $1 }) { $1 },
                      account: bed.fx.account)
    }

    private func startAgent(_ bed: SSHTestBed) throws -> String {
        let r = try bed.fx.run(["agent", "start"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let first = r.stdout.split(separator: "\n").first.map(String.init) ?? ""
        return String(first.dropFirst("SSH_AUTH_SOCK=".count).dropLast("; export SSH_AUTH_SOCK;".count))
    }

    private func generate(_ bed: SSHTestBed, _ name: String) throws -> (line: String, fingerprint: String) {
        try bed.fx.ok("keys", "generate", name)
        let key = try bed.fx.json("keys", "show", name) as? [String: Any] ?? [:]
        let line = (key["public_key"] as? String ?? "").split(separator: " ").prefix(2).joined(separator: " ")
        return (line, key["fingerprint"] as? String ?? "")
    }

    /// The contents of the public key file git's user.signingkey names in `scope`
    /// (`--local` of `repo`, or `--global`): a file, never a literal `key::`.
    private func signingKeyFile(_ bed: SSHTestBed, _ scope: String, repo: String? = nil) throws -> String {
        let r = try shell(bed, "git \(repo.map { "-C '\($0)' " } ?? "")config \(scope) --get user.signingkey")
        let path = r.stdout.trimmingCharacters(in: .newlines)
        XCTAssertTrue(path.hasPrefix("/") && path.hasSuffix(".pub"), "user.signingkey is \(path)")
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The hostbook binary's resolved path: what `git setup` sets as gpg.ssh.program.
    private func hostbookPath(_ bed: SSHTestBed) throws -> String {
        try shell(bed, "readlink -f \"$HB\"").stdout.trimmingCharacters(in: .newlines)
    }

    /// Every file under `folder` that holds a private key's armour.
    private func privateKeyFiles(_ folder: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: folder) else { return [] }
        return e.compactMap { $0 as? String }.filter { name in
            guard let data = FileManager.default.contents(atPath: folder + "/" + name) else { return false }
            return data.range(of: Data("PRIVATE KEY".utf8)) != nil
        }
    }

    func testACommitSignedThroughTheAgentIsGoodAndTheKeySignsNothingElse() throws {
        let bed = try bed()
        let (line, fingerprint) = try generate(bed, "signer")
        let repo = bed.fx.dir.file("repo")
        XCTAssertEqual(try shell(bed, "git init -q \"$DIR/repo\"").status, 0)

        // The two commands: setup, then a signed commit.
        let setup = try bed.fx.run(["git", "setup", "signer", "--repo", repo, "--email", "dev@example.com"])
        XCTAssertEqual(setup.status, 0, setup.stderr)
        XCTAssertTrue(setup.stdout.contains("Key 'signer' had no namespace: it now signs only git signatures (namespace git)"), setup.stdout)
        let socket = try startAgent(bed)
        defer { _ = try? bed.fx.run(["agent", "stop"]) }
        let env = ["SSH_AUTH_SOCK": socket]
        let commit = try shell(bed, "cd \"$DIR/repo\" && git commit -q -S --allow-empty -m signed", env)
        XCTAssertEqual(commit.status, 0, commit.stderr)
        let log = try shell(bed, "cd \"$DIR/repo\" && git log --show-signature -1", env)
        XCTAssertEqual(log.status, 0, log.stderr)
        XCTAssertTrue(log.stdout.contains("Good \"git\" signature for dev@example.com with ED25519 key \(fingerprint)"), log.stdout + log.stderr)

        // git's configuration as set up.
        let config = try shell(bed, "cd \"$DIR/repo\" && git config --local --list")
        XCTAssertEqual(try signingKeyFile(bed, "--local", repo: repo), line + " signer\n")
        for expected in ["gpg.format=ssh", "gpg.ssh.program=\(try hostbookPath(bed))", "commit.gpgsign=true", "tag.gpgsign=true",
                         "gpg.ssh.allowedsignersfile=\(bed.home)/conf/hostbook/allowed_signers", "user.email=dev@example.com"] {
            XCTAssertTrue(config.stdout.contains(expected + "\n"), "\(expected) in \(config.stdout)")
        }
        // The allowed signers file is what `keys allowed-signers` prints.
        let file = try String(contentsOfFile: bed.home + "/conf/hostbook/allowed_signers", encoding: .utf8)
        XCTAssertEqual(file, "dev@example.com namespaces=\"git\" \(line) signer\n")
        XCTAssertEqual(try bed.fx.ok("keys", "allowed-signers").stdout, file)

        // The same key, through the same agent: no signature in another namespace...
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: bed.fx.dir.file("signer.pub")))
        let fileSig = try shell(bed, "echo data | ssh-keygen -Y sign -n file -f \"$DIR/signer.pub\"", env)
        XCTAssertNotEqual(fileSig.status, 0, fileSig.stdout)
        XCTAssertFalse(fileSig.stdout.contains("BEGIN SSH SIGNATURE"))
        let gitSig = try shell(bed, "echo data | ssh-keygen -Y sign -n git -f \"$DIR/signer.pub\"", env)
        XCTAssertEqual(gitSig.status, 0, gitSig.stderr)
        XCTAssertTrue(gitSig.stdout.contains("BEGIN SSH SIGNATURE"), "namespace git still signs")

        // ...and no ssh login where its public key is authorized, saved host or not.
        let sshd = try PrivateSSHD(authorizedKeys: [line])
        defer { sshd.stop() }
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "signer")
        let knownHosts = bed.fx.dir.file("kh")
        try Data("[127.0.0.1]:\(sshd.port) \(try sshd.publicKeyTypeAndBlob())\n".utf8).write(to: URL(fileURLWithPath: knownHosts))
        let login = "ssh -F none -p \(sshd.port) -o BatchMode=yes -o UserKnownHostsFile=\(knownHosts) -o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes root@127.0.0.1 echo reached"
        let unknown = try shell(bed, login, env)
        XCTAssertEqual(unknown.status, 255, unknown.stdout)
        XCTAssertTrue(unknown.stderr.contains("Permission denied"), unknown.stderr)
        try bed.trust(sshd)
        let saved = try shell(bed, login, env)
        XCTAssertEqual(saved.status, 255, saved.stdout)
        XCTAssertFalse(saved.stdout.contains("reached"))
        // Lifted, the same ssh logs in: the namespace was what refused it.
        let lift = try bed.fx.ok("keys", "edit", "signer", "--no-namespace")
        XCTAssertTrue(lift.stdout.contains("signs ssh logins again"), lift.stdout)
        let lifted = try shell(bed, login, env)
        XCTAssertEqual(lifted.status, 0, lifted.stderr)
        XCTAssertEqual(lifted.stdout, "reached\n")
        // Restricted again by hand: refused again, and told which saved hosts that breaks.
        let again = try bed.fx.run(["keys", "edit", "signer", "--namespace", "git"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderr, "hostbook: warning: saved hosts log in with key 'signer', which no longer signs ssh logins: web\n")
        XCTAssertEqual(try shell(bed, login, env).status, 255)

        // The agent's log names the namespace as what refused `ssh-keygen -Y sign -n file`.
        XCTAssertEqual(try bed.fx.run(["agent", "stop"]).status, 0)
        let entries = try bed.fx.json("agent", "log") as? [[String: Any]] ?? []
        let keygen = entries.filter { ($0["client_executable"] as? String ?? "").hasSuffix("ssh-keygen") }
        XCTAssertEqual(keygen.map { "\($0["outcome"] ?? "?") \($0["decision"] ?? "?")" }, ["refused namespace", "signed no-confirm"], "\(entries)")
        // git's commit was signed by hostbook, git's gpg.ssh.program, run by git.
        let byHostbook = entries.filter { ($0["process_chain"] as? String ?? "").contains("hostbook -Y sign -n git -f ") }
        XCTAssertEqual(byHostbook.map { "\($0["outcome"] ?? "?") \($0["decision"] ?? "?")" }, ["signed no-confirm"], "\(entries)")
        // ... and identified by its executable (hostbook -Y stays dumpable: it holds no secret).
        XCTAssertEqual(byHostbook.map { ($0["client_executable"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }, ["hostbook"], "\(entries)")
        XCTAssertTrue(try bed.fx.ok("agent", "log").stdout.contains("refused  namespace"))

        XCTAssertEqual(privateKeyFiles(bed.fx.dir.path), [])
        XCTAssertEqual(privateKeyFiles(bed.home), [])
    }

    /// The bug of issue 34: git signing failed in any shell without SSH_AUTH_SOCK (git ran
    /// ssh-keygen, which found no agent) and left a `.git_signing_key_tmp*` file in the
    /// temporary folder for the literal `key::` signing key. With hostbook as gpg.ssh.program
    /// and a public key file as user.signingkey, neither happens.
    func testGitSignsInAShellWithoutSSHAuthSockAndLeavesNoTemporaryKeyFile() throws {
        let bed = try bed()
        let (_, fingerprint) = try generate(bed, "signer")
        XCTAssertEqual(try shell(bed, "git init -q \"$DIR/repo\" && mkdir \"$DIR/tmp\"").status, 0)
        try bed.fx.ok("git", "setup", "signer", "--repo", bed.fx.dir.file("repo"), "--email", "dev@example.com")
        _ = try startAgent(bed)
        defer { _ = try? bed.fx.run(["agent", "stop"]) }
        // git's temporary files go to $DIR/tmp (TMPDIR), so none of them can hide among others'.
        let env = ["TMPDIR": bed.fx.dir.file("tmp")]
        let inRepo = "unset SSH_AUTH_SOCK; cd \"$DIR/repo\" && "
        let commit = try shell(bed, inRepo + "git commit -q -S --allow-empty -m signed", env)
        XCTAssertEqual(commit.status, 0, commit.stderr)
        let log = try shell(bed, inRepo + "git log --show-signature -1", env)
        XCTAssertEqual(log.status, 0, log.stderr)
        XCTAssertTrue(log.stdout.contains("Good \"git\" signature for dev@example.com with ED25519 key \(fingerprint)"), log.stdout + log.stderr)
        // A tag too (tag.gpgsign), verified by `git tag -v` through ssh-keygen.
        XCTAssertEqual(try shell(bed, inRepo + "git tag -m v1 v1", env).status, 0)
        let tag = try shell(bed, inRepo + "git tag -v v1", env)
        XCTAssertEqual(tag.status, 0, tag.stderr)
        XCTAssertTrue(tag.stderr.contains("Good \"git\" signature for dev@example.com"), tag.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: bed.fx.dir.file("tmp")), [],
                       "git left temporary files behind")

        // Without the agent: refused, with the fix, and still nothing left behind.
        XCTAssertEqual(try bed.fx.run(["agent", "stop"]).status, 0)
        let stopped = try shell(bed, inRepo + "git commit -q -S --allow-empty -m again", env)
        XCTAssertNotEqual(stopped.status, 0)
        XCTAssertTrue(stopped.stderr.contains("hostbook: hostbook's agent is not running"), stopped.stderr)
        XCTAssertTrue(stopped.stderr.contains("hostbook agent start"), stopped.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: bed.fx.dir.file("tmp")), [])
        XCTAssertEqual(privateKeyFiles(bed.fx.dir.path), [])
    }

    /// Issue 34, item 2's last clause: with `git setup --start-agent` (git's
    /// hostbook.startAgent), a commit in a shell without SSH_AUTH_SOCK and with no agent
    /// running starts the standing agent and is signed; without the setting it fails with the
    /// one-line error that says what to run, and starts nothing.
    func testSigningStartsTheAgentWhenGitsConfigurationAsks() throws {
        let bed = try bed()
        let (_, fingerprint) = try generate(bed, "signer")
        XCTAssertEqual(try shell(bed, "git init -q \"$DIR/auto\" && git init -q \"$DIR/plain\"").status, 0)
        try bed.fx.ok("git", "setup", "signer", "--repo", bed.fx.dir.file("auto"), "--email", "dev@example.com", "--start-agent")
        try bed.fx.ok("git", "setup", "signer", "--repo", bed.fx.dir.file("plain"), "--email", "dev@example.com")
        defer { _ = try? bed.fx.run(["agent", "stop"]) }
        XCTAssertEqual(try shell(bed, "git -C \"$DIR/auto\" config --get hostbook.startAgent").stdout, "true\n")
        XCTAssertNotEqual(try bed.fx.run(["agent", "status"]).status, 0, "an agent runs before the test")

        // Without the setting: the one-line error with the command to run; no agent started.
        let plain = try shell(bed, "unset SSH_AUTH_SOCK; cd \"$DIR/plain\" && git commit -q -S --allow-empty -m unsigned")
        XCTAssertNotEqual(plain.status, 0)
        // git puts "error: " before the program's first line.
        let ours = plain.stderr.split(separator: "\n").filter { $0.contains("hostbook: ") }
        XCTAssertEqual(ours.count, 1, plain.stderr)
        XCTAssertTrue(ours.first?.hasPrefix("error: hostbook: hostbook's agent is not running") == true, plain.stderr)
        XCTAssertTrue(plain.stderr.contains("hostbook agent start"), plain.stderr)
        XCTAssertNotEqual(try bed.fx.run(["agent", "status"]).status, 0, "signing without the setting started an agent")

        // With it: signed, Good, and the agent now runs.
        let inRepo = "unset SSH_AUTH_SOCK; cd \"$DIR/auto\" && "
        let commit = try shell(bed, inRepo + "git commit -q -S --allow-empty -m signed")
        XCTAssertEqual(commit.status, 0, commit.stderr)
        let log = try shell(bed, inRepo + "git log --show-signature -1")
        XCTAssertTrue(log.stdout.contains("Good \"git\" signature for dev@example.com with ED25519 key \(fingerprint)"), log.stdout + log.stderr)
        XCTAssertEqual(try bed.fx.run(["agent", "status"]).status, 0, "no agent runs after signing")
        let stopped = try bed.fx.run(["agent", "stop"])
        XCTAssertEqual(stopped.status, 0, stopped.stderr)
        XCTAssertTrue(stopped.stdout.hasPrefix("Stopped the agent (pid "), stopped.stdout)
    }

    /// The agent git started cannot sign when the vault cannot give the key (here its item
    /// is gone; a locked vault takes the same path): one line saying so, with the fix.
    func testAnAgentStartedForGitThatCannotSignSaysWhy() throws {
        let bed = try bed()
        _ = try generate(bed, "signer")
        XCTAssertEqual(try shell(bed, "git init -q \"$DIR/auto\"").status, 0)
        try bed.fx.ok("git", "setup", "signer", "--repo", bed.fx.dir.file("auto"), "--email", "dev@example.com", "--start-agent")
        defer { _ = try? bed.fx.run(["agent", "stop"]) }
        let dbid = try Shell.sql(bed.fx.db, "SELECT value FROM meta WHERE key = 'database_id'")
        let uuid = try Shell.sql(bed.fx.db, "SELECT uuid FROM keys WHERE name = 'signer'")
        try Shell.run("secret-tool clear db \"$DBID\" kind private-key owner \"$OWNER\"", environment: ["DBID": dbid, "OWNER": uuid], account: bed.fx.account)
        let commit = try shell(bed, "unset SSH_AUTH_SOCK; cd \"$DIR/auto\" && git commit -q -S --allow-empty -m signed")
        XCTAssertNotEqual(commit.status, 0)
        let ours = commit.stderr.split(separator: "\n").filter { $0.contains("hostbook: ") }
        XCTAssertEqual(ours, ["error: hostbook: the agent started for git cannot sign with this key: the private key of 'signer' is not in the vault"], commit.stderr)
        XCTAssertTrue(commit.stderr.contains("\nRun 'hostbook doctor' to check the vault, or import the key again.\n"), commit.stderr)
        XCTAssertEqual(try bed.fx.run(["agent", "status"]).status, 0, "the agent git started runs")
    }

    private func namespaces(_ bed: SSHTestBed, _ key: String) throws -> [String]? {
        (try bed.fx.json("keys", "show", key) as? [String: Any])?["namespaces"] as? [String]
    }

    private func namespaceFindings(_ bed: SSHTestBed) throws -> [[String: Any]] {
        let doctor = try bed.fx.run(["doctor", "--json"])
        let report = try JSONSerialization.jsonObject(with: doctor.stdoutBytes) as? [String: Any] ?? [:]
        return (report["findings"] as? [[String: Any]] ?? []).filter { $0["check"] as? String == "keys.namespace" }
    }

    func testSetupNeverNarrowsAKeySavedHostsLogInWithAndDoctorReportsOneThatIs() throws {
        let bed = try bed()
        let login = try generate(bed, "login")
        try bed.fx.ok("add", "api", "--hostname", "127.0.0.1", "--key", "login")
        XCTAssertEqual(try shell(bed, "git init -q \"$DIR/repo\" && git init -q \"$DIR/bare\"").status, 0)
        let repo = bed.fx.dir.file("repo")

        // Without a terminal: set up as it is, unrestricted, and told how to get a signing-only key.
        let setup = try bed.fx.run(["git", "setup", "login", "--repo", repo, "--email", "dev@example.com"])
        XCTAssertEqual(setup.status, 0, setup.stderr)
        XCTAssertTrue(setup.stdout.contains("Key 'login' was left unrestricted: saved hosts log in with it (api), so it signs ssh logins and git signatures alike.\n"), setup.stdout)
        XCTAssertTrue(setup.stdout.contains("'hostbook git setup --new-key git-signing --repo \(repo)'"), setup.stdout)
        XCTAssertEqual(try namespaces(bed, "login"), [])
        XCTAssertEqual(try signingKeyFile(bed, "--local", repo: repo), login.line + " login\n")
        XCTAssertEqual(try namespaceFindings(bed).count, 0)

        // Restricted by hand, doctor names the key, the hosts it cuts off and the fix.
        try bed.fx.ok("keys", "edit", "login", "--namespace", "git")
        let findings = try namespaceFindings(bed)
        XCTAssertEqual(findings.map { $0["message"] as? String ?? "" },
                       ["key 'login' signs only in namespace git, but saved hosts log in with it (ssh to them is refused): api"])
        XCTAssertEqual(findings.first?["severity"] as? String, "error")
        let doctor = try bed.fx.run(["doctor"])
        XCTAssertEqual(doctor.status, 1)
        XCTAssertTrue(doctor.stdout.contains("  fix: Run: hostbook keys edit login --no-namespace (for git signing, make a dedicated key: hostbook git setup --new-key git-signing)\n"), doctor.stdout)
        try bed.fx.ok("keys", "edit", "login", "--no-namespace")
        XCTAssertEqual(try namespaceFindings(bed).count, 0)

        // --new-key: a new key, restricted to git, set up; checks come before the key is made.
        let noEmail = try bed.fx.run(["git", "setup", "--new-key", "other", "--repo", bed.fx.dir.file("bare")])
        XCTAssertEqual(noEmail.status, 5, noEmail.stderr)
        XCTAssertEqual(try bed.fx.run(["keys", "show", "other"]).status, 4, "nothing generated")
        XCTAssertEqual(try bed.fx.run(["git", "setup", "login", "--new-key", "x", "--repo", repo]).status, 2)
        XCTAssertEqual(try bed.fx.run(["git", "setup", "--repo", repo]).status, 2)
        let fresh = try bed.fx.run(["git", "setup", "--new-key", "signer", "--repo", repo, "--email", "dev@example.com", "--json"])
        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        let outcome = try JSONSerialization.jsonObject(with: fresh.stdoutBytes) as? [String: Any] ?? [:]
        XCTAssertEqual(outcome["key"] as? String, "signer")
        XCTAssertEqual(outcome["key_created"] as? Bool, true)
        XCTAssertEqual(outcome["left_unrestricted"] as? Bool, false)
        XCTAssertEqual(try namespaces(bed, "signer"), ["git"])
        XCTAssertEqual(try namespaces(bed, "login"), [])
        let signer = try bed.fx.json("keys", "show", "signer") as? [String: Any] ?? [:]
        let signerLine = (signer["public_key"] as? String ?? "").split(separator: " ").prefix(2).joined(separator: " ")
        XCTAssertEqual(try signingKeyFile(bed, "--local", repo: repo), signerLine + " signer\n")

        // On a terminal, a login key brings the offer of a dedicated key; yes makes and sets it up.
        try XCTSkipUnless(ScriptedTerminal.available, "needs script(1) for a terminal")
        let terminal = try ScriptedTerminal(["--db", bed.fx.db, "git", "setup", "login", "--repo", repo, "--email", "dev@example.com"], fixture: bed.fx)
        terminal.expect("Key 'login' logs in to saved hosts (api): restricting it to git signatures would cut them off.")
        terminal.expect("Make a dedicated signing key 'git-signing' (ed25519, namespace git) and set that up instead? [y/N] ")
        terminal.send("y")
        terminal.expect("git (\(repo)) now signs commits and tags with key 'git-signing' as dev@example.com.")
        XCTAssertEqual(terminal.finish(), 0, terminal.transcript)
        XCTAssertEqual(try namespaces(bed, "git-signing"), ["git"])
        XCTAssertEqual(try namespaces(bed, "login"), [])
        XCTAssertEqual(try namespaceFindings(bed).count, 0)
    }
}
