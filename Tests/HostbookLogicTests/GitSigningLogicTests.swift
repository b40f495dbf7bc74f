// Setting git up to sign with a saved key (`hostbook git setup`, `hostbook keys edit
// --namespace`, `hostbook keys allowed-signers`) and `hostbook -Y sign` as ssh-keygen's
// interface, in-process (InProcessCommand), with real git and ssh-keygen as the oracles:
// the allowed-signers file, git's configuration in each scope, every refusal writing
// nothing, signatures made through the standing agent (started from the built binary).
// git runs with the command's environment (its HOME, XDG_CONFIG_HOME and
// GIT_CONFIG_GLOBAL), never this test process's. git itself signing commits through
// `hostbook -Y sign` as its gpg.ssh.program stays on the binary: HostbookTests/GitSigningTests.
import Foundation
@testable import hostbook
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class GitSigningLogicTests: XCTestCase {
    var fx: InProcessCommand!
    var home: String { fx.environment["HOME"] ?? "" }
    private var processGlobal: String?

    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil, "needs a Secret Service (scripts/with-keyring)")
        fx = try InProcessCommand()
        try FileManager.default.createDirectory(atPath: fx.environment["HOME"]!, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        fx.environment["XDG_CONFIG_HOME"] = home + "/conf"
        fx.environment["GIT_AUTHOR_NAME"] = "Test Author"
        fx.environment["GIT_COMMITTER_NAME"] = "Test Author"
        // The call's global git configuration is the test home's; this process's own, for
        // the test's length, is a decoy with another email: a git run with this process's
        // environment instead of the call's reads that one (and writes there, never the
        // user's ~/.gitconfig).
        fx.environment["GIT_CONFIG_GLOBAL"] = home + "/.gitconfig"
        try Data("[user]\n\temail = decoy@example.com\n".utf8).write(to: URL(fileURLWithPath: fx.dir.file("process-gitconfig")))
        processGlobal = ProcessInfo.processInfo.environment["GIT_CONFIG_GLOBAL"]
        setenv("GIT_CONFIG_GLOBAL", fx.dir.file("process-gitconfig"), 1)
    }

    override func tearDown() {
        if let processGlobal { setenv("GIT_CONFIG_GLOBAL", processGlobal, 1) } else { unsetenv("GIT_CONFIG_GLOBAL") }
        fx?.stopAgent()
        fx = nil
    }

    @discardableResult
    private func shell(_ script: String, _ env: [String: String] = [:]) throws -> InProcessCommand.ToolOutcome {
        try fx.tool("/bin/sh", ["-c", script], environment: env.merging(["DIR": fx.dir.path]) { $1 })
    }

    private func generate(_ name: String) throws -> (line: String, fingerprint: String) {
        try fx.ok("keys", "generate", name)
        let key = try fx.json("keys", "show", name) as? [String: Any] ?? [:]
        let line = (key["public_key"] as? String ?? "").split(separator: " ").prefix(2).joined(separator: " ")
        return (line, key["fingerprint"] as? String ?? "")
    }

    /// The contents of the public key file git's user.signingkey names in `scope`
    /// (`--local` of `repo`, or `--global`): a file, never a literal `key::`.
    private func signingKeyFile(_ scope: String, repo: String? = nil) throws -> String {
        let r = try shell("git \(repo.map { "-C '\($0)' " } ?? "")config \(scope) --get user.signingkey")
        let path = r.stdout.trimmingCharacters(in: .newlines)
        XCTAssertTrue(path.hasPrefix("/") && path.hasSuffix(".pub"), "user.signingkey is \(path)")
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The resolved path of the program running the command (here this test process):
    /// what `git setup` sets as gpg.ssh.program.
    private func hostbookPath() throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    /// `body` run with this process's current folder at `folder` (a command without --repo
    /// acts on the repository of the current folder), and the folder put back.
    private func inFolder<T>(_ folder: String, _ body: () throws -> T) throws -> T {
        let before = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(before) }
        return try body()
    }

    func testAllowedSignersIsSortedAndRewrittenWhenKeysChange() throws {
        let b = try generate("bravo")
        let a = try generate("alpha")
        let p = try generate("plain")
        XCTAssertEqual(try shell("git init -q \"$DIR/r1\" && git init -q \"$DIR/r2\" && git -C \"$DIR/r2\" config user.email zed@example.com").status, 0)
        try fx.ok("git", "setup", "bravo", "--repo", fx.dir.file("r1"), "--email", "bob@example.com")
        // No --email: git's user.email of that repository.
        let second = try fx.run(["git", "setup", "alpha", "--repo", fx.dir.file("r2"), "--json"])
        XCTAssertEqual(second.status, 0, second.stderr)
        let outcome = try JSONSerialization.jsonObject(with: second.stdoutBytes) as? [String: Any] ?? [:]
        XCTAssertEqual(outcome["email"] as? String, "zed@example.com")
        XCTAssertEqual(outcome["user_email_set"] as? Bool, false)
        XCTAssertEqual(outcome["namespaces_changed"] as? Bool, true)

        let path = home + "/conf/hostbook/allowed_signers"
        let both = "bob@example.com namespaces=\"git\" \(b.line) bravo\nzed@example.com namespaces=\"git\" \(a.line) alpha\n"
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), both)
        XCTAssertEqual(try fx.ok("keys", "allowed-signers").stdout, both)
        // Setting up again changes nothing: the same bytes.
        try fx.ok("git", "setup", "bravo", "--repo", fx.dir.file("r1"), "--email", "bob@example.com")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), both)

        // keys show / list --json show the namespaces and the git email.
        let shown = try fx.json("keys", "show", "alpha") as? [String: Any] ?? [:]
        XCTAssertEqual(shown["namespaces"] as? [String], ["git"])
        XCTAssertEqual(shown["git_email"] as? String, "zed@example.com")
        let listed = try fx.json("keys", "list") as? [[String: Any]] ?? []
        XCTAssertEqual(listed.map { $0["namespaces"] as? [String] ?? ["?"] }, [["git"], ["git"], []])
        XCTAssertTrue(listed[2]["git_email"] is NSNull)

        // Removing a key rewrites the file without it, renaming one with its new name.
        try fx.ok("keys", "remove", "alpha", "--yes")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "bob@example.com namespaces=\"git\" \(b.line) bravo\n")
        try fx.ok("keys", "edit", "bravo", "--rename", "beta")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "bob@example.com namespaces=\"git\" \(b.line) beta\n")

        // Without --repo: the repository of the current folder; with --global: ~/.gitconfig.
        let here = try inFolder(fx.dir.file("r2")) { try fx.call(["git", "setup", "plain", "--email", "pat@example.com"]) }
        XCTAssertEqual(here.status, 0, here.stderr)
        XCTAssertEqual(try signingKeyFile("--local", repo: fx.dir.file("r2")), p.line + " plain\n")
        XCTAssertEqual(try shell("git -C \"$DIR/r2\" config --local --get user.email").stdout, "zed@example.com\n",
                       "a user.email already set is left as it is")
        let global = try fx.run(["git", "setup", "plain", "--global", "--email", "pat@example.com"])
        XCTAssertEqual(global.status, 0, global.stderr)
        XCTAssertTrue(global.stdout.contains("git's user.email was not set: set to pat@example.com."), global.stdout)
        let config = try shell("git config --global --list")
        XCTAssertEqual(try signingKeyFile("--global"), p.line + " plain\n")
        for expected in ["gpg.format=ssh", "gpg.ssh.program=\(try hostbookPath())", "commit.gpgsign=true", "tag.gpgsign=true",
                         "gpg.ssh.allowedsignersfile=\(path)", "user.email=pat@example.com"] {
            XCTAssertTrue(config.stdout.contains(expected + "\n"), "\(expected) in \(config.stdout)")
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8),
                       "bob@example.com namespaces=\"git\" \(b.line) beta\npat@example.com namespaces=\"git\" \(p.line) plain\n")
    }

    func testRefusalsSayWhatToDoAndWriteNothing() throws {
        _ = try generate("k")
        XCTAssertEqual(try shell("git init -q \"$DIR/repo\" && mkdir \"$DIR/plain\"").status, 0)
        try fx.fails(["git", "setup", "k", "--repo", fx.dir.file("repo")], status: 5,
                         stderr: "hostbook: no email to sign as: git's user.email is not set for this repository\nGive it with --email E (it is also set as user.email there).\n")
        try fx.fails(["git", "setup", "k", "--repo", fx.dir.file("repo"), "--email", "a b@example.com"], status: 5,
                         stderr: "hostbook: the email may hold only printable ASCII without spaces or any of , \" * ? ! #: a b@example.com\nGive another email with --email E.\n")
        let notRepo = try fx.run(["git", "setup", "k", "--repo", fx.dir.file("plain"), "--email", "a@example.com"])
        XCTAssertEqual(notRepo.status, 1)
        XCTAssertTrue(notRepo.stderr.contains("is not a git repository"), notRepo.stderr)
        try fx.fails(["git", "setup", "nokey", "--repo", fx.dir.file("repo"), "--email", "a@example.com"], status: 4,
                         stderr: "hostbook: no key named 'nokey'\nRun 'hostbook keys list' to see the keys.\n")
        let exclusive = try fx.run(["git", "setup", "k", "--global", "--repo", fx.dir.file("repo")])
        XCTAssertEqual(exclusive.status, 2)
        XCTAssertTrue(exclusive.stderr.hasPrefix("hostbook: --global and --repo cannot be used together\n"), exclusive.stderr)
        // Nothing was recorded: no namespace, no file.
        let shown = try fx.json("keys", "show", "k") as? [String: Any] ?? [:]
        XCTAssertEqual(shown["namespaces"] as? [String], [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/conf/hostbook/allowed_signers"))
        XCTAssertEqual(try shell("git -C \"$DIR/repo\" config --local --get gpg.format").stdout, "")

        // keys edit: a bad namespace, both flags, nothing asked.
        try fx.fails(["keys", "edit", "k", "--namespace", "a b"], status: 5,
                         stderr: "hostbook: a namespace holds only letters, digits and . - _ @ +: a b\nGive a namespace such as 'git' or 'file' with --namespace.\n")
        let both = try fx.run(["keys", "edit", "k", "--namespace", "git", "--no-namespace"])
        XCTAssertEqual(both.status, 2, both.stderr)
        XCTAssertEqual(try fx.run(["keys", "edit", "k"]).status, 2)
        let edited = try fx.run(["keys", "edit", "k", "--namespace", "git", "--namespace", "file", "--json"])
        XCTAssertEqual(edited.status, 0, edited.stderr)
        let key = try JSONSerialization.jsonObject(with: edited.stdoutBytes) as? [String: Any] ?? [:]
        XCTAssertEqual(key["namespaces"] as? [String], ["file", "git"])
    }

    /// `hostbook -Y sign` as ssh-keygen's interface: standard input to standard output, a
    /// file to FILE.sig; ssh-keygen accepts both; a bad request says what is wrong. The
    /// standing agent that signs is started from the built binary.
    func testTheSSHKeygenInterfaceSignsStdinAndFilesThroughTheAgent() throws {
        let (line, _) = try generate("signer")
        try Data((line + " signer\n").utf8).write(to: URL(fileURLWithPath: fx.dir.file("signer.pub")))
        try Data("dev@example.com \(line)\n".utf8).write(to: URL(fileURLWithPath: fx.dir.file("allowed")))
        try fx.privateRuntimeFolder()
        try fx.startAgent()
        defer { fx.stopAgent() }
        XCTAssertNil(fx.environment["SSH_AUTH_SOCK"], "the agent is found at its own socket")
        try Data("data".utf8).write(to: URL(fileURLWithPath: fx.dir.file("msg")))
        try inFolder(fx.dir.path) {
            // The steps of `sign < msg > stdin.sig && sign -U msg && verify (ssh-keygen) x2
            // && hostbook -Y verify && find-principals`, each in turn, their output together.
            var out = ""
            var status: Int32 = 0
            let stdinSig = try fx.call(["-Y", "sign", "-n", "file", "-f", "signer.pub"], stdin: "data")
            XCTAssertEqual(stdinSig.status, 0, stdinSig.stderr)
            try stdinSig.stdoutBytes.write(to: URL(fileURLWithPath: fx.dir.file("stdin.sig")))
            let fileSig = try fx.call(["-Y", "sign", "-n", "file", "-f", "signer.pub", "-U", "msg"])
            XCTAssertEqual(fileSig.status, 0, fileSig.stderr)
            out += fileSig.stdout
            for sig in ["stdin.sig", "msg.sig"] {
                let r = try fx.tool("/usr/bin/ssh-keygen", ["-Y", "verify", "-f", "allowed", "-I", "dev@example.com", "-n", "file", "-s", sig], stdin: "data")
                XCTAssertEqual(r.status, 0, r.stderr)
                status |= r.status
                out += r.stdout
            }
            let verify = try fx.call(["-Y", "verify", "-f", "allowed", "-I", "dev@example.com", "-n", "file", "-s", "msg.sig"], stdin: "data")
            XCTAssertEqual(verify.status, 0, verify.stderr)
            let find = try fx.call(["-Y", "find-principals", "-f", "allowed", "-s", "msg.sig"])
            XCTAssertEqual(find.status, 0, find.stderr)
            out += verify.stdout + find.stdout
            XCTAssertEqual(status, 0)
            XCTAssertTrue(out.hasSuffix("dev@example.com\n"), out)
            XCTAssertEqual(out.components(separatedBy: "Good \"file\" signature for dev@example.com").count, 4, out + verify.stderr)
            // The wrong namespace does not verify (the delegated ssh-keygen's status is hostbook's).
            XCTAssertNotEqual(try fx.call(["-Y", "verify", "-f", "allowed", "-I", "dev@example.com", "-n", "git", "-s", "msg.sig"], stdin: "data").status, 0)
            let bad = try fx.call(["-Y", "sign", "-f", "signer.pub", "msg"])
            XCTAssertEqual(bad.status, 5, bad.stderr)
            XCTAssertTrue(bad.stderr.hasPrefix("hostbook: ssh-keygen -Y sign: -n NAMESPACE is missing\n"), bad.stderr)
        }
    }

    /// git runs with the command's environment, not this process's: a global configuration
    /// named by the call's GIT_CONFIG_GLOBAL gives the email to sign as, not this process's
    /// own (the decoy's decoy@example.com).
    func testGitRunsWithTheCommandsEnvironment() throws {
        _ = try generate("k")
        XCTAssertEqual(try shell("git init -q \"$DIR/repo\"").status, 0)
        let global = fx.dir.file("team-gitconfig")
        try Data("[user]\n\temail = team@example.com\n".utf8).write(to: URL(fileURLWithPath: global))
        let r = try fx.call(["git", "setup", "k", "--repo", fx.dir.file("repo"), "--json"], environment: ["GIT_CONFIG_GLOBAL": global])
        XCTAssertEqual(r.status, 0, r.stderr)
        let outcome = try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any] ?? [:]
        XCTAssertEqual(outcome["email"] as? String, "team@example.com")
        XCTAssertEqual(outcome["user_email_set"] as? Bool, false)
    }
}
