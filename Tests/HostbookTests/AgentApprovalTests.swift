// A key saved with `hostbook keys edit NAME --confirm` in the real standing agent, with real
// ssh against a private sshd: the agent runs $SSH_ASKPASS (a script that records its
// argument and environment and answers with the exit status in a file) before each
// signature, as ssh-agent does for `ssh-add -c`. Denied (no signature, ssh fails), allowed
// once, a grant (ten connections, one prompt), a forwarded request asking every time, and
// no approver (refused, the reason in the log); the prompt names the saved host, its host
// key's fingerprint and the chain ssh ← its shell. Two logins, or two `ssh-keygen -Y sign`
// (git, file), asking at once are each shown and decided by their own answer (issue 28,
// hole 4), and only one `agent approve` answers at a time.
// Storing and showing the settings (`keys edit --confirm --grant`) runs in-process:
// HostbookLogicTests/AgentApprovalSettingsLogicTests.
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class AgentApprovalTests: XCTestCase {
    private struct Bed {
        let bed: SSHTestBed
        let sshd: PrivateSSHD
        let askpass: String
        let record: String
        let answer: String
        let options: String
    }

    private func makeBed() throws -> Bed {
        let bed = try SSHTestBed()
        let path = bed.fx.dir.file("ck-key")
        XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", "ck", "-f", path]).status, 0)
        XCTAssertEqual(try bed.fx.run(["keys", "import", path, "--name", "ck"]).status, 0)
        try FileManager.default.removeItem(atPath: path)
        let publicLine = try String(contentsOfFile: path + ".pub", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let sshd = try PrivateSSHD(authorizedKeys: [publicLine])
        try bed.fx.ok("add", "web", "--hostname", "127.0.0.1", "--port", String(sshd.port), "--user", "root", "--key", "ck")
        try bed.trust(sshd)
        let knownHosts = bed.fx.dir.file("kh")
        try Data("[127.0.0.1]:\(sshd.port) \(try sshd.publicKeyTypeAndBlob())\n".utf8).write(to: URL(fileURLWithPath: knownHosts))
        let record = bed.fx.dir.file("asked")
        let answer = bed.fx.dir.file("answer")
        let askpass = bed.fx.dir.file("askpass.sh")
        try Data("""
            #!/bin/sh
            { echo "PROMPT=$SSH_ASKPASS_PROMPT ARGC=$#"; printf '%s\\n' "$1"; echo "----"; } >> "\(record)"
            exit "$(cat "\(answer)")"

            """.utf8).write(to: URL(fileURLWithPath: askpass))
        chmod(askpass, 0o755)
        let options = "-F none -p \(sshd.port) -o BatchMode=yes -o IdentitiesOnly=no -o UserKnownHostsFile=\(knownHosts) -o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes"
        return Bed(bed: bed, sshd: sshd, askpass: askpass, record: record, answer: answer, options: options)
    }

    struct JumpBed { let fx: HostbookFixture; let gate: PrivateSSHD; let inner: PrivateSSHD; let bed: SSHTestBed }

    func makeBedForJump(sameKey: Bool = false) throws -> JumpBed {
        let bed = try SSHTestBed()
        var publics: [String] = []
        for name in ["ck", "ik"] {
            let path = bed.fx.dir.file(name + "-key")
            XCTAssertEqual(try ToolProcess.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path]).status, 0)
            XCTAssertEqual(try bed.fx.run(["keys", "import", path, "--name", name]).status, 0)
            try FileManager.default.removeItem(atPath: path)
            publics.append(try String(contentsOfFile: path + ".pub", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let gate = try PrivateSSHD(authorizedKeys: [publics[0]])
        let inner = try PrivateSSHD(hostKeyTypes: ["ecdsa"], authorizedKeys: [publics[sameKey ? 0 : 1]])
        try bed.fx.ok("add", "gate", "--hostname", "127.0.0.1", "--port", String(gate.port), "--user", "root", "--key", "ck")
        try bed.fx.ok("add", "inner", "--hostname", "127.0.0.1", "--port", String(inner.port), "--user", "root", "--key", sameKey ? "ck" : "ik", "--jump", "gate")
        try bed.trust(gate)
        try bed.fx.ok("known-hosts", "approve", "127.0.0.1", "--port", String(inner.port), "--key", try inner.publicKeyTypeAndBlob("ecdsa"), "--yes")
        try bed.fx.ok("keys", "edit", "ck", "--confirm")
        return JumpBed(fx: bed.fx, gate: gate, inner: inner, bed: bed)
    }

    private func startAgent(_ b: Bed, askpass: Bool = true, program: String? = nil) throws -> String {
        let r = try b.bed.fx.run(["agent", "start"], bytes: nil, environment: askpass ? ["SSH_ASKPASS": program ?? b.askpass] : [:])
        XCTAssertEqual(r.status, 0, r.stderr)
        let first = r.stdout.split(separator: "\n").first.map(String.init) ?? ""
        return String(first.dropFirst("SSH_AUTH_SOCK=".count).dropLast("; export SSH_AUTH_SOCK;".count))
    }

    private func stopAgent(_ b: Bed) throws {
        XCTAssertEqual(try b.bed.fx.run(["agent", "stop"]).status, 0)
    }

    private func answer(_ b: Bed, _ status: Int) throws {
        try Data("\(status)\n".utf8).write(to: URL(fileURLWithPath: b.answer))
    }

    /// The prompts the askpass script was run with, in order.
    private func prompts(_ b: Bed) -> [String] {
        let text = (try? String(contentsOfFile: b.record, encoding: .utf8)) ?? ""
        return text.components(separatedBy: "----\n").filter { !$0.isEmpty }
    }

    /// ssh to the sshd through the agent; the shell stays ssh's parent (it runs a command after).
    private func ssh(_ b: Bed, _ socket: String, _ remote: String = "echo reached", forward: Bool = false) throws -> Shell.Result {
        var environment = b.bed.fx.environment
        environment["SSH_AUTH_SOCK"] = socket
        return try Shell.run("ssh \(forward ? "-A " : "")\(b.options) root@127.0.0.1 '\(remote)'; status=$?; exit $status",
                             environment: environment, account: b.bed.fx.account)
    }

    private func log(_ b: Bed) throws -> [[String: Any]] {
        try b.bed.fx.json("agent", "log") as? [[String: Any]] ?? []
    }

    func testAConfirmKeyIsDeniedAllowedGrantedAndRefusedWithoutApprover() throws {
        let b = try makeBed()
        defer { b.sshd.stop() }
        try b.bed.fx.ok("keys", "edit", "ck", "--confirm")
        let socket = try startAgent(b)
        var stopped = false
        defer { if !stopped { try? stopAgent(b) } }

        // Denied: no signature, ssh fails.
        try answer(b, 1)
        let denied = try ssh(b, socket)
        XCTAssertNotEqual(denied.status, 0, denied.stdout)
        XCTAssertFalse(denied.stdout.contains("reached"))
        XCTAssertEqual(prompts(b).count, 1)

        // Allowed once, and again: without a grant every signature asks.
        try answer(b, 0)
        for _ in 0..<2 {
            let allowed = try ssh(b, socket)
            XCTAssertEqual(allowed.status, 0, allowed.stderr)
            XCTAssertEqual(allowed.stdout, "reached\n")
        }
        XCTAssertEqual(prompts(b).count, 3)

        // What the prompt showed: the key, the saved host with its address and host-key
        // fingerprint, and the chain ssh ← its shell; SSH_ASKPASS_PROMPT=confirm, one argument.
        let prompt = prompts(b).first ?? ""
        let key = try b.bed.fx.json("keys", "show", "ck") as? [String: Any] ?? [:]
        let hostKeyFile = b.bed.fx.dir.file("hostkey.pub")
        try Data((try b.sshd.publicKey() + "\n").utf8).write(to: URL(fileURLWithPath: hostKeyFile))
        let hostKeyFingerprint = String(try ToolProcess.sshKeygen(["-l", "-f", hostKeyFile]).stdout.split(separator: " ")[1])
        XCTAssertTrue(prompt.hasPrefix("PROMPT=confirm ARGC=1\nAllow a signature with key ck?\n"), prompt)
        XCTAssertTrue(prompt.contains("ssh-ed25519 \(key["fingerprint"] as? String ?? "?")"), prompt)
        XCTAssertTrue(prompt.contains("destination: web (root@127.0.0.1:\(b.sshd.port))"), prompt)
        XCTAssertTrue(prompt.contains("host key:    \(hostKeyFingerprint)"), prompt)
        let lines = prompt.split(separator: "\n").map(String.init)
        let client = lines.first { $0.contains("requested by:") } ?? ""
        XCTAssertTrue(client.contains(" /usr/bin/ssh: ssh -F none -p \(b.sshd.port)"), prompt)
        let parent = lines.first { $0.contains("from:") } ?? ""
        XCTAssertTrue(parent.contains("sh") && parent.contains(" -c ssh -F none"), prompt)

        // A grant: one approval covers ten connections of the same program to the same host.
        try b.bed.fx.ok("keys", "edit", "ck", "--grant", "10m")
        for _ in 0..<10 {
            let r = try ssh(b, socket)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        XCTAssertEqual(prompts(b).count, 4, "one prompt for ten connections")
        XCTAssertTrue(prompts(b).last?.contains("10m") == true, prompts(b).last ?? "")

        // No approver: the agent started without SSH_ASKPASS refuses, and says why.
        try stopAgent(b)
        let bare = try startAgent(b, askpass: false)
        let refused = try ssh(b, bare)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertEqual(prompts(b).count, 4)
        try stopAgent(b)
        stopped = true

        let entries = try log(b)
        XCTAssertEqual(entries.map { $0["decision"] as? String ?? "-" },
                       ["denied", "prompt", "prompt", "prompt"] + Array(repeating: "grant", count: 9) + ["no-approver"])
        XCTAssertEqual(entries.map { $0["outcome"] as? String ?? "-" },
                       ["refused"] + Array(repeating: "signed", count: 12) + ["refused"])
        XCTAssertTrue(entries.allSatisfy { $0["destination"] as? String == "web" }, "\(entries)")
        let chain = entries.first?["process_chain"] as? String ?? ""
        XCTAssertTrue(chain.hasPrefix("pid "), chain)
        XCTAssertTrue(chain.split(separator: "\n").first?.contains("/usr/bin/ssh: ssh") == true, chain)
        XCTAssertGreaterThanOrEqual(chain.split(separator: "\n").count, 2, chain)
        let table = try b.bed.fx.ok("agent", "log").stdout
        XCTAssertTrue(table.contains("refused  no-approver"), table)
    }

    func testAForwardedRequestAsksEveryTimeWhateverTheGrant() throws {
        let b = try makeBed()
        defer { b.sshd.stop() }
        try b.bed.fx.ok("keys", "edit", "ck", "--confirm", "--grant", "1h")
        try b.bed.fx.ok("edit", "web", "--allow-agent-forwarding")
        let socket = try startAgent(b)
        var stopped = false
        defer { if !stopped { try? stopAgent(b) } }
        try answer(b, 0)
        for _ in 0..<2 {
            let r = try ssh(b, socket, "ssh \(b.options) root@127.0.0.1 echo inner", forward: true)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, "inner\n")
        }
        // The outer connection asks once (then its grant covers it); the forwarded one each time.
        let asked = prompts(b)
        XCTAssertEqual(asked.count, 3, asked.joined(separator: "\n"))
        XCTAssertEqual(asked.filter { $0.contains("forwarded through web") }.count, 2, asked.joined(separator: "\n"))
        try stopAgent(b)
        stopped = true
        let entries = try log(b)
        XCTAssertEqual(entries.map { $0["decision"] as? String ?? "-" }, ["prompt", "prompt", "grant", "prompt"])
        XCTAssertEqual(entries.filter { $0["forwarded_through"] as? String == "web" }.count, 2, "\(entries)")
    }

    /// An askpass that leaves each prompt in `prompt.PID` and answers with the exit status
    /// the test writes to `answer.PID`: several prompts can be open at once, each answered
    /// on its own.
    private func waitingAskpass(_ b: Bed) throws -> String {
        let dir = b.bed.fx.dir.path
        let path = b.bed.fx.dir.file("askpass-waits.sh")
        try Data("""
            #!/bin/sh
            printf '%s\\n' "$1" > "\(dir)/prompt.$$.tmp" && mv "\(dir)/prompt.$$.tmp" "\(dir)/prompt.$$"
            while [ ! -e "\(dir)/answer.$$" ]; do sleep 0.05; done
            exit "$(cat "\(dir)/answer.$$")"

            """.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        return path
    }

    /// The open prompt (its askpass's pid and text) that contains `text` and is not one of
    /// `seen`, waited for at most `seconds` (a guard against a hang: nil when it never came).
    private func openPrompt(_ b: Bed, containing text: String = "", notOneOf seen: [String] = [], seconds: Double = 60) -> (pid: String, text: String)? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: b.bed.fx.dir.path)) ?? []
            for name in names where name.hasPrefix("prompt.") && !name.hasSuffix(".tmp") && !seen.contains(String(name.dropFirst("prompt.".count))) {
                if let prompt = try? String(contentsOfFile: b.bed.fx.dir.file(name), encoding: .utf8), text.isEmpty || prompt.contains(text) {
                    return (String(name.dropFirst("prompt.".count)), prompt)
                }
            }
            usleep(20_000)
        } while Date() < deadline
        return nil
    }

    private func answer(_ b: Bed, prompt pid: String, _ status: Int) throws {
        let path = b.bed.fx.dir.file("answer.\(pid)")
        try Data("\(status)\n".utf8).write(to: URL(fileURLWithPath: path + ".tmp"))
        XCTAssertEqual(rename(path + ".tmp", path), 0)
    }

    /// Issue 28, hole 4, with ssh logins: while the first login's prompt is open, a second
    /// login with the same key to the same server from the same program asks too. It must
    /// be shown on its own and decided by its own answer: "yes" to the first, "no" to the
    /// second leaves the second without a signature (before, it waited for the first's
    /// answer and ran its command on the server unseen).
    func testTwoConcurrentLoginsAreEachShownAndAnswered() throws {
        let b = try makeBed()
        defer { b.sshd.stop() }
        try b.bed.fx.ok("keys", "edit", "ck", "--confirm")
        let socket = try startAgent(b, program: try waitingAskpass(b))
        defer { try? stopAgent(b) }

        let first = Background { try? self.ssh(b, socket, "echo first") }
        // (The prompt shows ssh's command line cut at 200 characters: the remote command is
        // past that, so the prompts are told apart by their order.)
        let firstPrompt = try XCTUnwrap(openPrompt(b), "the first login asks")
        let second = Background { try? self.ssh(b, socket, "echo second") }
        let secondPrompt = openPrompt(b, notOneOf: [firstPrompt.pid], seconds: 30)
        try answer(b, prompt: firstPrompt.pid, 0)
        if let secondPrompt { try answer(b, prompt: secondPrompt.pid, 1) }
        let allowed = first.wait()
        let other = second.wait()

        XCTAssertNotNil(secondPrompt, "the second login was never shown")
        XCTAssertEqual(allowed?.status, 0, allowed?.stderr ?? "")
        XCTAssertEqual(allowed?.stdout, "first\n")
        XCTAssertNotEqual(other?.status, 0, "the second login was signed by the first one's answer")
        XCTAssertFalse(other?.stdout.contains("second") ?? true, other?.stdout ?? "")
        XCTAssertTrue(firstPrompt.text.contains("signs:       a login as root"), firstPrompt.text)
        XCTAssertTrue(firstPrompt.text.contains("program:     /usr/bin/ssh\n"), firstPrompt.text)
        XCTAssertEqual(try log(b).map { $0["decision"] as? String ?? "-" }.sorted(), ["denied", "prompt"])
    }

    /// Issue 28, hole 4, with SSHSIG: `ssh-keygen -Y sign -n git` waits for its prompt while
    /// `-n file` asks; each is shown with its namespace, and "yes" to git signs git alone.
    func testTwoConcurrentSSHSIGSignaturesAreEachShownAndAnswered() throws {
        let b = try makeBed()
        defer { b.sshd.stop() }
        try b.bed.fx.ok("keys", "edit", "ck", "--confirm")
        let socket = try startAgent(b, program: try waitingAskpass(b))
        defer { try? stopAgent(b) }
        let fx = b.bed.fx
        for name in ["data-git", "data-file"] {
            try Data("\(name)\n".utf8).write(to: URL(fileURLWithPath: fx.dir.file(name)))
            chmod(fx.dir.file(name), 0o644)
        }
        var environment = fx.environment
        environment["SSH_AUTH_SOCK"] = socket
        let sign = { (namespace: String) -> Shell.Result? in
            try? Shell.run("ssh-keygen -Y sign -n \(namespace) -f '\(fx.dir.file("ck-key.pub"))' '\(fx.dir.file("data-" + namespace))'",
                           environment: environment, account: fx.account)
        }
        let git = Background { sign("git") }
        let gitPrompt = try XCTUnwrap(openPrompt(b, containing: "-n git"), "git's signature asks")
        let file = Background { sign("file") }
        let filePrompt = openPrompt(b, containing: "-n file", seconds: 30)
        try answer(b, prompt: gitPrompt.pid, 0)
        if let filePrompt { try answer(b, prompt: filePrompt.pid, 1) }
        let signedGit = git.wait()
        let signedFile = file.wait()

        XCTAssertNotNil(filePrompt, "the file signature was never shown")
        XCTAssertEqual(signedGit?.status, 0, signedGit?.stderr ?? "")
        XCTAssertTrue(FileManager.default.fileExists(atPath: fx.dir.file("data-git.sig")))
        XCTAssertNotEqual(signedFile?.status, 0, "the file signature was made by git's answer")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fx.dir.file("data-file.sig")))
        XCTAssertTrue(gitPrompt.text.contains("namespace:   git"), gitPrompt.text)
        XCTAssertFalse(gitPrompt.text.contains("destination"), "an SSHSIG signature names its namespace, not a destination: \(gitPrompt.text)")
        XCTAssertTrue(filePrompt?.text.contains("namespace:   file") == true, filePrompt?.text ?? "")
    }

    /// `hostbook agent approve` on a pseudo-terminal answers the agent started without an
    /// askpass: n refuses, a allows and starts the key's grant (the next connection is not
    /// asked), and it ends when the agent stops.
    func testAgentApproveAnswersOnAPseudoTerminal() throws {
        let b = try makeBed()
        defer { b.sshd.stop() }
        try b.bed.fx.ok("keys", "edit", "ck", "--confirm", "--grant", "10m")
        let socket = try startAgent(b, askpass: false)
        var stopped = false
        defer { if !stopped { try? stopAgent(b) } }
        let approve = try PseudoTerminalProcess(["agent", "approve"], environment: b.bed.fx.environment, account: b.bed.fx.account)
        defer { approve.terminate() }
        try approve.waitFor("Ctrl-D or Ctrl-C stops.")
        // Only one answers: a second is refused with one line, and the first says so.
        let another = try PseudoTerminalProcess(["agent", "approve"], environment: b.bed.fx.environment, account: b.bed.fx.account)
        try another.waitFor("answers the agent's requests")
        XCTAssertEqual(another.waitForExit(), 1)
        XCTAssertTrue(another.screen.hasPrefix("hostbook: another 'hostbook agent approve' (pid "), another.screen)
        another.terminate()
        try approve.waitFor("tried to answer the agent's requests; it was refused.")

        let first = Background { try? self.ssh(b, socket) }
        try approve.waitFor("Allow? [y]es once, [a]llow for 10m, [n]o: ")
        let screen = approve.screen
        XCTAssertTrue(screen.contains("Allow a signature with key ck?"), screen)
        XCTAssertTrue(screen.contains("destination: web (root@127.0.0.1:\(b.sshd.port))"), screen)
        XCTAssertTrue(screen.contains("/usr/bin/ssh: ssh -F none"), screen)
        // The grant's sentence comes with the grant choice, just above it, and names its scope;
        // a bad answer is told what to answer, then asked again (issue 34).
        XCTAssertTrue(screen.contains("\n[a] also allows, for 10m and without asking, every signature with key ck to web (host key SHA256:"), screen)
        XCTAssertTrue(screen.contains(") by /usr/bin/ssh.\nAllow? [y]es once, [a]llow for 10m, [n]o: "), screen)
        XCTAssertFalse(screen.contains("Allowing covers"), screen)
        approve.type("maybe\n")
        try approve.waitFor("answer y, a or n")
        try approve.waitFor("Allow? [y]es once, [a]llow for 10m, [n]o: ", occurrence: 2)
        approve.type("n\n")
        try approve.waitFor("Refused.")
        let refused = first.wait()
        XCTAssertNotEqual(refused?.status, 0)

        let second = Background { try? self.ssh(b, socket) }
        try approve.waitFor("Allow? [y]es once, [a]llow for 10m, [n]o: ", occurrence: 3)
        approve.type("a\n")
        try approve.waitFor("allowed for 10m.")
        let allowed = second.wait()
        XCTAssertEqual(allowed?.status, 0, allowed?.stderr ?? "")
        XCTAssertEqual(allowed?.stdout, "reached\n")
        // Covered by the grant: no question.
        let granted = try ssh(b, socket)
        XCTAssertEqual(granted.status, 0, granted.stderr)
        XCTAssertEqual(approve.screen.components(separatedBy: "Allow? [y]es").count - 1, 3, "two requests, one asked twice")

        try stopAgent(b)
        stopped = true
        try approve.waitFor("The agent stopped.")
        XCTAssertEqual(approve.waitForExit(), 0)
        XCTAssertEqual(try log(b).map { $0["decision"] as? String ?? "-" }, ["denied", "prompt", "grant"])
    }

    /// The person who asked learns what happens (issue 34, item 4): plain ssh on a pseudo
    /// terminal (script(1) makes it ssh's controlling terminal) sees one line when its
    /// signature is refused for want of an approver, and one while it waits for `agent
    /// approve`; the question itself is asked only in `agent approve`.
    func testTheRequestersOwnTerminalIsToldWhatHappens() throws {
        guard ScriptedTerminal.available else { throw XCTSkip("script(1) is missing") }
        let b = try makeBed()
        defer { b.sshd.stop() }
        try b.bed.fx.ok("keys", "edit", "ck", "--confirm")
        let socket = try startAgent(b, askpass: false)
        var stopped = false
        defer { if !stopped { try? stopAgent(b) } }
        let argv = ["/usr/bin/ssh"] + b.options.split(separator: " ").map(String.init) + ["root@127.0.0.1", "echo reached"]

        let refused = try ScriptedTerminal(running: argv, fixture: b.bed.fx, environment: ["SSH_AUTH_SOCK": socket])
        refused.expect("hostbook: refused: no approver; run 'hostbook agent approve' or set SSH_ASKPASS")
        XCTAssertNotEqual(refused.finish(), 0)
        XCTAssertFalse(refused.transcript.contains("\nreached"), refused.transcript)

        let approve = try PseudoTerminalProcess(["agent", "approve"], environment: b.bed.fx.environment, account: b.bed.fx.account)
        defer { approve.terminate() }
        try approve.waitFor("Ctrl-D or Ctrl-C stops.")
        let waiting = try ScriptedTerminal(running: argv, fixture: b.bed.fx, environment: ["SSH_AUTH_SOCK": socket])
        try approve.waitFor("Allow? [y]es, [n]o: ")
        waiting.expect("hostbook: waiting for approval of 'ck' → web in 'hostbook agent approve'")
        approve.type("y\n")
        waiting.expect("reached")
        XCTAssertEqual(waiting.finish(), 0, waiting.transcript)
        XCTAssertFalse(waiting.transcript.contains("Allow"), "never a question on the requester's terminal: \(waiting.transcript)")
        XCTAssertEqual(waiting.transcript.components(separatedBy: "hostbook:").count - 1, 1, waiting.transcript)

        try stopAgent(b)
        stopped = true
        XCTAssertEqual(try log(b).map { $0["decision"] as? String ?? "-" }, ["no-approver", "prompt"])
    }

    /// Issue 34, item 4's optional part: where a desktop notification service answers on the
    /// user's session bus (dunst on a private Xvfb display), a signature refused for want of
    /// an approver is also a notification: dbus-monitor on that bus sees the standing agent's
    /// Notify with the notice.
    func testARefusalForWantOfAnApproverIsAlsoADesktopNotification() throws {
        let tools = ["Xvfb", "dunst", "dbus-monitor", "gdbus"]
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for tool in tools where !path.contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }) {
            throw XCTSkip("\(tool) is missing (scripts/setup)")
        }
        let b = try makeBed()
        defer { b.sshd.stop() }
        try b.bed.fx.ok("keys", "edit", "ck", "--confirm")
        let account = b.bed.fx.account
        let dir = b.bed.fx.dir
        // A private display: Xvfb writes its number once it is ready (-ac: the account may draw).
        let xvfb = try Shell.start("exec Xvfb -displayfd 1 -ac -nolisten tcp -screen 0 640x480x24", dir: dir, tag: "xvfb")
        defer { kill(xvfb.processIdentifier, SIGTERM); xvfb.waitUntilExit() }
        var display = ""
        for _ in 0..<1000 where display.isEmpty {
            display = Shell.output(dir, "xvfb").0.hasSuffix("\n") ? Shell.output(dir, "xvfb").0.trimmingCharacters(in: .newlines) : ""
            if display.isEmpty { usleep(10_000) }
        }
        XCTAssertFalse(display.isEmpty, "Xvfb gave no display")
        let dunst = try Shell.start("exec dunst", environment: ["DISPLAY": ":" + display], dir: dir, tag: "dunst", account: account)
        defer { kill(dunst.processIdentifier, SIGTERM); dunst.waitUntilExit() }
        let owned = try Shell.run("gdbus wait --session --timeout 10 org.freedesktop.Notifications", account: account)
        XCTAssertEqual(owned.status, 0, "dunst did not take org.freedesktop.Notifications: \(Shell.output(dir, "dunst").1)")
        let monitor = try Shell.start("exec dbus-monitor --session \"type='signal',member='NameLost'\" \"type='method_call',member='Notify'\"",
                                      dir: dir, tag: "monitor", account: account)
        defer { kill(monitor.processIdentifier, SIGTERM); monitor.waitUntilExit() }
        func monitored() -> String { Shell.output(dir, "monitor").0 }
        func waitFor(_ text: String) -> Bool {
            for _ in 0..<1000 { if monitored().contains(text) { return true }; usleep(10_000) }
            return false
        }
        XCTAssertTrue(waitFor("member=NameLost"), "dbus-monitor is monitoring")

        let socket = try startAgent(b, askpass: false)
        defer { try? stopAgent(b) }
        var environment = b.bed.fx.environment
        environment["SSH_AUTH_SOCK"] = socket
        let sign = try Shell.run("cd \"$D\" && printf data | ssh-keygen -Y sign -n file -f ck-key.pub",
                                 environment: environment.merging(["D": dir.path]) { $1 }, account: account)
        XCTAssertNotEqual(sign.status, 0, sign.stdout)
        XCTAssertTrue(waitFor("refused: no approver; run 'hostbook agent approve' or set SSH_ASKPASS"), monitored())
        XCTAssertTrue(monitored().contains("member=Notify"), monitored())
        XCTAssertEqual(try log(b).map { $0["decision"] as? String ?? "-" }, ["no-approver"])
    }

    /// The per-session agent of `hostbook ssh` asks on the session's own terminal: n
    /// refuses (ssh fails), y connects; without a terminal the key is refused.
    func testHostbookSSHAsksOnItsOwnTerminal() throws {
        let b = try makeBed()
        defer { b.sshd.stop() }
        try b.bed.fx.ok("keys", "edit", "ck", "--confirm")
        guard ScriptedTerminal.available else { throw XCTSkip("script(1) is missing") }
        // script(1) makes the terminal the session's controlling one: /dev/tty.
        let denied = try ScriptedTerminal(["--db", b.bed.fx.db, "ssh", "web", "-o", "BatchMode=yes", "echo reached"], fixture: b.bed.fx)
        denied.expect("Allow? [y]es, [n]o: ")
        let screen = denied.transcript
        XCTAssertTrue(screen.contains("Allow a signature with key ck?"), screen)
        XCTAssertTrue(screen.contains("destination: web (root@127.0.0.1:\(b.sshd.port))"), screen)
        // The chain: ssh, then the hostbook ssh that started it.
        XCTAssertTrue(screen.contains("requested by: pid "), screen)
        XCTAssertTrue(screen.contains(" /usr/bin/ssh: /usr/bin/ssh -F "), screen)
        XCTAssertTrue(screen.contains("/hostbook --db \(b.bed.fx.db) ssh web -o BatchMode=yes echo reached"), screen)
        denied.send("x")
        denied.expect("answer y or n")
        denied.expect("Allow? [y]es, [n]o: ")
        denied.send("n")
        XCTAssertNotEqual(denied.finish(), 0)
        XCTAssertFalse(denied.transcript.contains("\nreached"), denied.transcript)

        let allowed = try ScriptedTerminal(["--db", b.bed.fx.db, "ssh", "web", "echo reached"], fixture: b.bed.fx)
        allowed.expect("Allow? [y]es, [n]o: ")
        allowed.send("y")
        allowed.expect("reached")
        XCTAssertEqual(allowed.finish(), 0, allowed.transcript)

        // No terminal: nobody to ask, refused.
        let batch = try b.bed.ssh(["web", "-o", "BatchMode=yes", "echo reached"])
        XCTAssertNotEqual(batch.status, 0)
        XCTAssertFalse(batch.stdout.contains("reached"))
    }
}

extension AgentApprovalTests {
    /// A connection through a jump host asks once per hop it signs for (issue 34): with one
    /// confirm key on both hops, `hostbook ssh inner` asks twice, first for the jump host
    /// (its own connection, the `ssh -W` child), then for inner, each naming its own
    /// destination; no hop is asked twice.
    func testAJumpConnectionAsksOncePerHop() throws {
        guard ScriptedTerminal.available else { throw XCTSkip("script(1) is missing") }
        let b = try makeBedForJump(sameKey: true)
        defer { b.gate.stop(); b.inner.stop() }
        let t = try ScriptedTerminal(["--db", b.fx.db, "ssh", "inner", "echo reached"], fixture: b.fx)
        t.expect("destination: gate (")
        t.expect("Allow? [y]es, [n]o: ")
        t.send("y")
        t.expect("destination: inner (")
        t.expect("Allow? [y]es, [n]o: ")
        t.send("y")
        t.expect("reached")
        XCTAssertEqual(t.finish(), 0, t.transcript)
        XCTAssertEqual(t.transcript.components(separatedBy: "Allow a signature").count - 1, 2, t.transcript)
    }

    /// Through the installed configuration and the standing agent, plain ssh: the jump host's
    /// confirm key asks once (its askpass runs once), the other hop's key not at all.
    func testAJumpHostAsksOnceThroughTheStandingAgent() throws {
        let b = try makeBedForJump()
        defer { b.gate.stop(); b.inner.stop() }
        let record = b.fx.dir.file("asked")
        let askpass = b.fx.dir.file("askpass.sh")
        try Data("#!/bin/sh\n{ printf '%s\\n' \"$1\"; echo ----; } >> \"\(record)\"\nexit 0\n".utf8).write(to: URL(fileURLWithPath: askpass))
        chmod(askpass, 0o755)
        XCTAssertEqual(try b.fx.run(["ssh-config", "--install"]).status, 0)
        let started = try b.fx.run(["agent", "start"], bytes: nil, environment: ["SSH_ASKPASS": askpass])
        XCTAssertEqual(started.status, 0, started.stderr)
        var stopped = false
        defer { if !stopped { _ = try? b.fx.run(["agent", "stop"]) } }
        var env = b.fx.environment
        env["CFG"] = b.bed.home + "/.ssh/config"
        let r = try Shell.run("unset SSH_AUTH_SOCK; ssh -F \"$CFG\" -o BatchMode=yes inner echo reached", environment: env, account: b.fx.account)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "reached\n")
        let asked = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        XCTAssertEqual(asked.components(separatedBy: "----").count - 1, 1, asked)
        XCTAssertTrue(asked.contains("destination: gate ("), asked)
        XCTAssertEqual(try b.fx.run(["agent", "stop"]).status, 0)
        stopped = true
        let log = try b.fx.json("agent", "log") as? [[String: Any]] ?? []
        XCTAssertEqual(log.map { "\($0["key"] ?? "")→\($0["destination"] ?? "")" }.sorted(), ["ck→gate", "ik→inner"], "\(log)")
    }
}

/// A command run on a thread of its own while the test drives the terminal.
private final class Background: @unchecked Sendable {
    private var result: Shell.Result?
    private let done = DispatchSemaphore(value: 0)
    private let body: () -> Shell.Result?

    init(_ body: @escaping () -> Shell.Result?) {
        self.body = body
        Thread { [self] in
            result = self.body()
            done.signal()
        }.start()
    }

    func wait() -> Shell.Result? {
        done.wait()
        return result
    }
}

/// The real hostbook on a pseudo-terminal, driven as a user would: wait until the screen
/// shows a text, then type.
private final class PseudoTerminalProcess: @unchecked Sendable {
    private let process = Process()
    private let master: Int32
    private let lock = NSLock()
    private var output: [UInt8] = []
    private var reader: Thread?

    init(_ arguments: [String], environment: [String: String], account: TestAccount?) throws {
        var master: Int32 = -1, slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw XCTSkip("openpty is not available") }
        self.master = master
        try TestAccount.prepare(process, [HostbookProcess.binaryURL.path] + arguments, environment: environment, removing: [],
                                account: account, terminal: slave)
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        close(slave)
        let reader = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(self.master, &buffer, buffer.count)
                if n > 0 { lock.lock(); output += buffer[0..<n]; lock.unlock(); continue }
                if n < 0 && errno == EINTR { continue }
                break
            }
        }
        self.reader = reader
        reader.start()
    }

    var screen: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: output, as: UTF8.self).replacingOccurrences(of: "\r", with: "")
    }

    /// Waits until `text` is on the screen `occurrence` times (at most 60 s, then fails).
    func waitFor(_ text: String, occurrence: Int = 1, file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(60)
        while screen.components(separatedBy: text).count - 1 < occurrence {
            guard Date() < deadline, process.isRunning || screen.contains(text) else {
                XCTFail("never showed '\(text)' (running: \(process.isRunning), status \(process.isRunning ? -1 : process.terminationStatus)):\n\(screen)", file: file, line: line)
                throw XCTSkip("the terminal never showed what the test waits for")
            }
            usleep(10_000)
        }
    }

    func type(_ text: String) {
        _ = text.withCString { write(master, $0, strlen($0)) }
    }

    func waitForExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    func terminate() {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        close(master)
    }
}
