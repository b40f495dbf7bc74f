// A key saved with `--confirm` in the one signing decision of the agents
// (AgentAccessPolicy.decideSigning): driven in-process through the Agent library's
// conversation against a real SQLite database, with an approver the test injects (as the
// agent injects AskpassApprover). What each prompt shows (key, destination, process chain,
// forwarding hosts, what is signed and its digest, the verified program), how each signature
// was decided (the log's word), grants scoped to key × destination × program (an
// interpreter's script) × namespace, forwarded requests and unidentified programs asking
// every time, an answer covering only the request it showed (identical requests asked at
// once are each asked, unless a grant covers them), and the askpass program itself (a
// script) timing out. The prompts are the executable's words (AgentApprovalWording), given
// to the agent as it starts, so the decision and what it shows are tested together here.
@testable import hostbook
import Foundation
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import Agent
@testable import Sessions
import HostStore
import KeyFormats
import SecureMemory
import System

/// Answers from a list (the last one repeated), records every request it is asked about;
/// `gate` (when set) holds each answer until the test signals it.
private final class ScriptedApprover: AgentApprover, @unchecked Sendable {
    let mutex = NSLock()
    var answers: [ApprovalAnswer]
    var asked: [ApprovalRequest] = []
    let gate: DispatchSemaphore?
    init(_ answers: [ApprovalAnswer], gate: DispatchSemaphore? = nil) {
        self.answers = answers
        self.gate = gate
    }
    func ask(_ request: ApprovalRequest, timeoutSeconds: Int) -> ApprovalAnswer {
        mutex.lock()
        asked.append(request)
        let answer = answers.count > 1 ? answers.removeFirst() : answers[0]
        mutex.unlock()
        gate?.wait()
        return answer
    }
    var prompts: [String] { mutex.lock(); defer { mutex.unlock() }; return asked.map(AgentApprovalWording().prompt) }
}

/// Answers by what the prompt shows; records every prompt.
private final class PromptedApprover: AgentApprover, @unchecked Sendable {
    let mutex = NSLock()
    var shown: [String] = []
    let decide: @Sendable (String) -> ApprovalAnswer
    init(_ decide: @escaping @Sendable (String) -> ApprovalAnswer) { self.decide = decide }
    func ask(_ request: ApprovalRequest, timeoutSeconds: Int) -> ApprovalAnswer {
        mutex.lock()
        let prompt = AgentApprovalWording().prompt(request)
        shown.append(prompt)
        mutex.unlock()
        return decide(prompt)
    }
    var prompts: [String] { mutex.lock(); defer { mutex.unlock() }; return shown }
}

/// Replies by name, from several threads.
private final class Replies: @unchecked Sendable {
    let mutex = NSLock()
    var byName: [String: [UInt8]] = [:]
    func set(_ name: String, _ reply: [UInt8]) { mutex.lock(); byName[name] = reply; mutex.unlock() }
    func get(_ name: String) -> [UInt8]? { mutex.lock(); defer { mutex.unlock() }; return byName[name] }
}

/// The outcomes the policy reports, in order.
private final class Outcomes: @unchecked Sendable {
    let mutex = NSLock()
    var list: [AgentSignOutcome] = []
    func add(_ o: AgentSignOutcome) { mutex.lock(); list.append(o); mutex.unlock() }
    var hows: [String?] { mutex.lock(); defer { mutex.unlock() }; return list.map(\.how) }
}

final class AgentApprovalPolicyTests: XCTestCase {
    private var folder: String!
    private var database: HostDatabase!
    private var userKeys: [String: PrivateKey] = [:]
    private var hostKeys: [String: PrivateKey] = [:]

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("agent-approval-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        database = try HostDatabase.open(path: folder + "/hostbook.db")
        for name in ["plain-key", "web-key"] {
            let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: name)
            userKeys[name] = key
            try KeyStore(database: database).insert(NewKey(uuid: UUIDString.random(), name: name, publicKey: key.publicKey, comment: name, format: "openssh"))
        }
        try KeyStore(database: database).update(name: "web-key", KeyChanges(confirm: true, grantSeconds: 600))
        try database.addHost(NewHost(name: "web", hostname: "web.test", port: 2222, user: "alice", key: "web-key"))
        try database.addHost(NewHost(name: "jump", hostname: "jump.test"))
        var lines = ""
        for name in ["web", "jump", "stranger"] {
            let key = try PrivateKeyGenerator.generate(.ed25519, bits: nil, comment: name)
            hostKeys[name] = key
            if name == "web" { lines += "[web.test]:2222 \(key.publicKey.line(comment: ""))\n" }
            if name == "jump" { lines += "jump.test \(key.publicKey.line(comment: ""))\n" }
        }
        _ = try KnownHostsStore(database: database).importKnownHosts(Array(lines.utf8))
    }

    override func tearDown() {
        database = nil
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }

    private func policy(_ approvals: AgentApprovals, _ outcomes: Outcomes) -> AgentPolicy {
        let database = self.database!
        let keys = userKeys
        let access = AgentAccessPolicy(rules: .standing, approvals: approvals, database: { database })
        return access.agentPolicy(identity: { stored in keys[stored.name].map { AgentIdentity(key: $0, comment: stored.name) } },
                                  outcome: { _, _, o in outcomes.add(o) })
    }

    /// This test process is the client: its chain is real, and its program identified by a pidfd.
    private static var peer: AgentPeer {
        AgentPeer(pid: getpid(), uid: getuid(), gid: getgid(), process: ProcessIdentity(pid: getpid()))
    }

    func testAKeyWithoutConfirmSignsWithoutAskingAndAConfirmKeyWithoutApproverIsRefused() throws {
        let outcomes = Outcomes()
        var c = AgentConversation(peer: Self.peer, policy: policy(AgentApprovals(approver: nil), outcomes))
        XCTAssertTrue(signs(&c, "plain-key", data: [1]))
        XCTAssertFalse(signs(&c, "web-key", data: [1]), "nobody can be asked")
        XCTAssertEqual(outcomes.hows, ["no-confirm", "no-approver"])
        XCTAssertEqual(outcomes.list.map(\.signed), [true, false])

        // An approver that cannot ask (no askpass program) is no approver either.
        let unavailable = ScriptedApprover([.unavailable])
        var d = AgentConversation(peer: Self.peer, policy: policy(AgentApprovals(approver: unavailable), outcomes))
        XCTAssertFalse(signs(&d, "web-key", data: [1]))
        XCTAssertEqual(outcomes.hows.last, "no-approver")
    }

    func testThePromptShowsKeyDestinationAndProcessChainAndTheAnswerDecides() throws {
        let approver = ScriptedApprover([.deny, .allowOnce, .allowOnce])
        let outcomes = Outcomes()
        let approvals = AgentApprovals(approver: approver)
        var c = AgentConversation(peer: Self.peer, policy: policy(approvals, outcomes))
        XCTAssertEqual(c.reply(to: bind("web")), [6])
        XCTAssertEqual(listed(c), ["web-key"], "listing never asks")
        XCTAssertEqual(approver.asked.count, 0)
        XCTAssertFalse(signs(&c, "web-key", bound: "web"), "denied")
        XCTAssertTrue(signs(&c, "web-key", bound: "web"), "allowed once")
        XCTAssertTrue(signs(&c, "web-key", bound: "web"), "allowed once more: allowOnce makes no grant")
        XCTAssertEqual(outcomes.hows, ["denied", "prompt", "prompt"])
        XCTAssertEqual(approver.asked.count, 3)

        let prompt = approver.prompts[0]
        let key = try XCTUnwrap(KeyStore(database: database).find(name: "web-key"))
        XCTAssertTrue(prompt.contains("web-key"), prompt)
        XCTAssertTrue(prompt.contains("ssh-ed25519 \(key.fingerprint)"), prompt)
        XCTAssertTrue(prompt.contains("destination: web (alice@web.test:2222)"), prompt)
        XCTAssertTrue(prompt.contains("host key:    \(hostKeys["web"]!.publicKey.sha256Fingerprint)"), prompt)
        XCTAssertFalse(prompt.contains("forwarded"), prompt)
        // The chain: this process, then its parent, each with its pid and executable.
        let chain = approver.asked[0].chain
        XCTAssertEqual(chain.first?.pid, getpid())
        XCTAssertGreaterThanOrEqual(chain.count, 2, "the test process has a parent")
        XCTAssertLessThanOrEqual(chain.count, 4, "the client and at most 3 ancestors")
        XCTAssertEqual(chain.count > 1 ? chain[1].pid : nil, getppid())
        XCTAssertTrue(prompt.contains("requested by: pid \(getpid()) /"), prompt)
        XCTAssertTrue(prompt.contains("from: pid \(getppid()) "), prompt)
    }

    func testAnUnknownServerAndNoDestinationAreSaidSo() throws {
        let approver = ScriptedApprover([.allowOnce])
        let approvals = AgentApprovals(approver: approver)
        var c = AgentConversation(peer: Self.peer, policy: policy(approvals, Outcomes()))
        XCTAssertEqual(c.reply(to: bind("stranger")), [6])
        XCTAssertTrue(signs(&c, "web-key", bound: "stranger"))
        var unbound = AgentConversation(peer: Self.peer, policy: policy(approvals, Outcomes()))
        XCTAssertTrue(signs(&unbound, "web-key", data: [7]))
        XCTAssertTrue(approver.prompts[0].contains("a server hostbook does not know (host key \(hostKeys["stranger"]!.publicKey.sha256Fingerprint))"), approver.prompts[0])
        XCTAssertTrue(approver.prompts[1].contains("destination: none"), approver.prompts[1])
    }

    func testAGrantCoversTheSameKeyDestinationAndProgramUntilCleared() throws {
        let approver = ScriptedApprover([.allowForGrant])
        let outcomes = Outcomes()
        let approvals = AgentApprovals(approver: approver)
        for _ in 0..<10 {
            var c = AgentConversation(peer: Self.peer, policy: policy(approvals, outcomes))
            XCTAssertEqual(c.reply(to: bind("web")), [6])
            XCTAssertTrue(signs(&c, "web-key", bound: "web"))
        }
        XCTAssertEqual(approver.asked.count, 1, "one prompt for ten connections")
        // The grant's sentence names the scope: key × destination (host key) × program.
        let first = approver.asked[0]
        let wording = AgentApprovalWording()
        XCTAssertFalse(wording.prompt(first).contains("10m"), "the prompt above the choices says nothing of the grant: \(wording.prompt(first))")
        XCTAssertEqual(wording.grantSentence(first, choice: "[a]"),
                       "[a] also allows, for 10m and without asking, every signature with key web-key to web (host key \(hostKeys["web"]!.publicKey.sha256Fingerprint)) by \(first.program?.executable ?? "?").")
        XCTAssertEqual(outcomes.hows, ["prompt"] + Array(repeating: "grant", count: 9))
        // Another destination is another scope.
        var other = AgentConversation(peer: Self.peer, policy: policy(approvals, outcomes))
        XCTAssertEqual(other.reply(to: bind("stranger")), [6])
        XCTAssertTrue(signs(&other, "web-key", bound: "stranger"))
        XCTAssertEqual(approver.asked.count, 2)
        // Locking the agent clears the grants.
        approvals.clear()
        var again = AgentConversation(peer: Self.peer, policy: policy(approvals, outcomes))
        XCTAssertEqual(again.reply(to: bind("web")), [6])
        XCTAssertTrue(signs(&again, "web-key", bound: "web"))
        XCTAssertEqual(approver.asked.count, 3)
        XCTAssertEqual(outcomes.hows.last, "prompt")
    }

    func testAGrantRunsOutAndAKeyWithoutGrantAsksEveryTime() throws {
        let clock = Clock()
        let approver = ScriptedApprover([.allowForGrant])
        let approvals = AgentApprovals(approver: approver, clock: { clock.now })
        var c = AgentConversation(peer: Self.peer, policy: policy(approvals, Outcomes()))
        XCTAssertEqual(c.reply(to: bind("web")), [6])
        XCTAssertTrue(signs(&c, "web-key", bound: "web"))
        clock.now = 599
        XCTAssertTrue(signs(&c, "web-key", bound: "web"))
        XCTAssertEqual(approver.asked.count, 1)
        clock.now = 600
        XCTAssertTrue(signs(&c, "web-key", bound: "web"))
        XCTAssertEqual(approver.asked.count, 2, "the grant of 600 s ran out")

        try KeyStore(database: database).update(name: "web-key", KeyChanges(grantSeconds: 0))
        XCTAssertTrue(signs(&c, "web-key", bound: "web"))
        XCTAssertTrue(signs(&c, "web-key", bound: "web"))
        XCTAssertEqual(approver.asked.count, 4, "no grant: 'allow for the grant' allows once")
    }

    func testAForwardedRequestAsksEveryTimeAndSaysThroughWhichHost() throws {
        var allow = HostChanges()
        allow.agentForwarding = true
        try database.editHost("jump", allow)
        let approver = ScriptedApprover([.allowForGrant])
        let outcomes = Outcomes()
        let approvals = AgentApprovals(approver: approver)
        for _ in 0..<3 {
            var c = AgentConversation(peer: Self.peer, policy: policy(approvals, outcomes))
            XCTAssertEqual(c.reply(to: bind("jump", forwarding: true)), [6])
            XCTAssertEqual(c.reply(to: bind("web")), [6])
            XCTAssertTrue(signs(&c, "web-key", bound: "web"))
        }
        XCTAssertEqual(approver.asked.count, 3, "a forwarded request asks every time")
        XCTAssertEqual(outcomes.hows, ["prompt", "prompt", "prompt"])
        XCTAssertTrue(approver.prompts[0].contains("forwarded through jump"), approver.prompts[0])
        // A local request is not covered by what was allowed for a forwarded one.
        var local = AgentConversation(peer: Self.peer, policy: policy(approvals, outcomes))
        XCTAssertEqual(local.reply(to: bind("web")), [6])
        XCTAssertTrue(signs(&local, "web-key", bound: "web"))
        XCTAssertEqual(approver.asked.count, 4)
    }

    /// Three identical requests at once (same key, destination, program, data): a "yes,
    /// this once" answers the request it showed and no other; each of the others is asked
    /// in turn with its own prompt (hole 4 of issue 28: one approval signed two requests).
    func testAnAnswerForOneOfIdenticalRequestsAskedAtOnceCoversNoOther() throws {
        let gate = DispatchSemaphore(value: 0)
        let approver = ScriptedApprover([.allowOnce, .deny, .allowOnce], gate: gate)
        let approvals = AgentApprovals(approver: approver)
        let outcomes = Outcomes()
        let group = concurrentSignatures(3, approvals, outcomes)
        // The first asks; the other two wait for its answer (it might have made a grant).
        while approvals.requestsWaiting < 2 || approver.asked.count < 1 { usleep(1_000) }
        XCTAssertEqual(approver.asked.count, 1)
        gate.signal()
        while approvals.requestsWaiting < 1 || approver.asked.count < 2 { usleep(1_000) }
        XCTAssertEqual(approver.asked.count, 2, "the once-answer covered no other request: the second is asked")
        gate.signal()
        gate.signal()
        group.wait()
        XCTAssertEqual(approver.asked.count, 3, "three requests, three prompts")
        XCTAssertEqual(outcomes.hows.sorted { ($0 ?? "") < ($1 ?? "") }, ["denied", "prompt", "prompt"])
        XCTAssertEqual(outcomes.list.filter(\.signed).count, 2, "the one refused is not signed")
    }

    /// "Allow for the grant" for one of three identical requests: the two that waited are
    /// covered by the grant it made (one prompt, no storm).
    func testAGrantMadeForOneOfIdenticalRequestsCoversTheOthers() throws {
        let gate = DispatchSemaphore(value: 0)
        let approver = ScriptedApprover([.allowForGrant], gate: gate)
        let approvals = AgentApprovals(approver: approver)
        let outcomes = Outcomes()
        let group = concurrentSignatures(3, approvals, outcomes)
        while approvals.requestsWaiting < 2 || approver.asked.count < 1 { usleep(1_000) }
        gate.signal()
        group.wait()
        XCTAssertEqual(approver.asked.count, 1, "one prompt for three identical requests")
        // (In whichever order the three threads report.)
        XCTAssertEqual(outcomes.hows.map { $0 ?? "-" }.sorted(), ["grant", "grant", "prompt"])
    }

    /// Two SSHSIG requests of one client at once, in namespaces git and file: each prompt
    /// shows its own namespace and data digest, and each answer decides its own request.
    func testEachSSHSIGRequestIsShownAndAnsweredWithItsNamespaceAndData() throws {
        try KeyStore(database: database).update(name: "web-key", KeyChanges(grantSeconds: 0))
        let approver = PromptedApprover { $0.contains("namespace:   git\n") ? .allowOnce : .deny }
        let approvals = AgentApprovals(approver: approver)
        let outcomes = Outcomes()
        let policy = self.policy(approvals, outcomes)
        let git = try sshsigRequest("web-key", namespace: "git", message: Array("commit".utf8))
        let file = try sshsigRequest("web-key", namespace: "file", message: Array("evil".utf8))
        let replies = Replies()
        let group = DispatchGroup()
        for (name, request) in [("git", git), ("file", file)] {
            DispatchQueue.global().async(group: group) {
                var c = AgentConversation(peer: Self.peer, policy: policy)
                replies.set(name, c.reply(to: request))
            }
        }
        group.wait()
        XCTAssertEqual(replies.get("git")?.first, 14, "git: allowed")
        XCTAssertEqual(replies.get("file")?.first, 5, "file: refused, whatever git's answer")
        let prompts = approver.prompts.sorted()
        XCTAssertEqual(prompts.count, 2)
        let filePrompt = prompts.first { $0.contains("namespace:   file\n") } ?? ""
        let gitPrompt = prompts.first { $0.contains("namespace:   git\n") } ?? ""
        XCTAssertTrue(filePrompt.contains("namespace:   file"), filePrompt)
        XCTAssertTrue(gitPrompt.contains("  data:        SHA256:"), gitPrompt)
        let digest = { (p: String) in p.split(separator: "\n").first { $0.hasPrefix("  data:") } }
        XCTAssertNotEqual(digest(filePrompt), digest(gitPrompt), "each prompt names its own data")
    }

    /// A grant is scoped to the namespace: git's grant does not cover file.
    func testAGrantCoversOnlyItsNamespace() throws {
        let approver = ScriptedApprover([.allowForGrant, .deny])
        let approvals = AgentApprovals(approver: approver)
        let outcomes = Outcomes()
        var c = AgentConversation(peer: Self.peer, policy: policy(approvals, outcomes))
        XCTAssertEqual(c.reply(to: try sshsigRequest("web-key", namespace: "git", message: [1])).first, 14)
        XCTAssertEqual(c.reply(to: try sshsigRequest("web-key", namespace: "git", message: [2])).first, 14)
        XCTAssertEqual(c.reply(to: try sshsigRequest("web-key", namespace: "file", message: [3])).first, 5)
        XCTAssertEqual(outcomes.hows, ["prompt", "grant", "denied"])
        // The prompt names the namespace where a login names its destination (issue 34), and
        // says nothing of a grant: that sentence goes with the grant choice alone.
        let prompt = approver.prompts[0]
        XCTAssertTrue(prompt.contains("\n  namespace:   git\n"), prompt)
        XCTAssertFalse(prompt.contains("destination"), prompt)
        XCTAssertFalse(prompt.contains("10m"), prompt)
        let program = try XCTUnwrap(approver.asked[0].program?.executable)
        XCTAssertEqual(AgentApprovalWording().grantSentence(approver.asked[0], choice: "[a]"),
                       "[a] also allows, for 10m and without asking, every signature with key web-key in namespace git by \(program).")
    }

    /// A client whose program cannot be identified (no pidfd, or it exec'd, exited, is not
    /// dumpable) is shown as "unknown program" and gets no grant: each request asks.
    func testAnUnidentifiedProgramIsShownSoAndGetsNoGrant() throws {
        let approver = ScriptedApprover([.allowForGrant])
        let approvals = AgentApprovals(approver: approver)
        let outcomes = Outcomes()
        let unknown = AgentPeer(pid: getpid(), uid: getuid(), gid: getgid(), process: nil)
        for _ in 0..<2 {
            var c = AgentConversation(peer: unknown, policy: policy(approvals, outcomes))
            XCTAssertEqual(c.reply(to: bind("web")), [6])
            XCTAssertTrue(signs(&c, "web-key", bound: "web"), "a once-answer is still given")
        }
        XCTAssertEqual(approver.asked.count, 2, "no grant for an unknown program")
        XCTAssertEqual(outcomes.hows, ["prompt", "prompt"])
        let prompt = approver.prompts[0]
        XCTAssertTrue(prompt.contains("  program:     unknown program"), prompt)
        XCTAssertTrue(prompt.contains("requested by: pid \(getpid()) unknown program: "), prompt)
        XCTAssertTrue(prompt.contains("An unknown program asks every time."), prompt)
        XCTAssertFalse(prompt.contains("allows, for"), prompt)
        XCTAssertNil(AgentApprovalWording().grantSentence(approver.asked[0], choice: "[a]"), "no grant, so no grant sentence")
    }

    /// A grant for a script's interpreter names the script: `sh first.sh`'s grant does not
    /// cover `sh other.sh` (the same /proc/PID/exe).
    func testAGrantForAnInterpreterNamesTheScript() throws {
        for name in ["first.sh", "other.sh"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("sleep 30; :\n".utf8)))
        }
        var children: [pid_t] = []
        defer { for pid in children { kill(pid, SIGKILL); _ = WaitStatus.wait(pid) } }
        func peer(_ script: String) throws -> AgentPeer {
            let pid = try Spawn.start("/bin/sh", ["sh", folder + "/" + script])
            children.append(pid)
            var tries = 0
            while ProcessChain.commandLine(of: pid) != ["sh", folder + "/" + script] && tries < 6_000 { usleep(5_000); tries += 1 }
            return AgentPeer(pid: pid, uid: getuid(), gid: getgid(), process: ProcessIdentity(pid: pid))
        }
        let first = try peer("first.sh"), other = try peer("other.sh")
        let approver = ScriptedApprover([.allowForGrant])
        let approvals = AgentApprovals(approver: approver)
        let outcomes = Outcomes()
        for p in [first, first, other] {
            var c = AgentConversation(peer: p, policy: policy(approvals, outcomes))
            XCTAssertEqual(c.reply(to: bind("web")), [6])
            XCTAssertTrue(signs(&c, "web-key", bound: "web"))
        }
        XCTAssertEqual(outcomes.hows, ["prompt", "grant", "prompt"], "another script is another program")
        XCTAssertTrue(approver.prompts[0].contains(" running "), approver.prompts[0])
        XCTAssertTrue(approver.prompts[0].contains("first.sh"), approver.prompts[0])
        XCTAssertTrue(approver.prompts[1].contains("other.sh"), approver.prompts[1])
    }

    func testTheTouchNoticeNamesTheKeyAndTheDestinationEscaped() throws {
        let key = try XCTUnwrap(KeyStore(database: database).find(name: "web-key"))
        let saved = ApprovalRequest(key: key, destination: .savedHosts([SavedDestination(name: "web\u{1b}[2J", user: nil, hostname: "w", port: 22)],
                                                                      hostKeyFingerprint: "SHA256:x"),
                                    subject: .unidentified, dataDigest: "SHA256:d", program: nil, chain: [], forwardedThrough: [])
        let wording = AgentApprovalWording()
        XCTAssertEqual(wording.touchNotice(saved), "hostbook: touch your security key for 'web-key' → web\\u{1b}[2J")
        let sshsig = ApprovalRequest(key: key, destination: .none, subject: .sshsig(namespace: "git"), dataDigest: "SHA256:d",
                                     program: nil, chain: [], forwardedThrough: [])
        XCTAssertEqual(wording.touchNotice(sshsig), "hostbook: touch your security key for 'web-key' → namespace git")
    }

    /// A security key's PIN through SSH_ASKPASS: its first line, without SSH_ASKPASS_PROMPT
    /// (a question, not a confirmation); a failing or missing program gives none.
    func testAnAskpassSecretIsItsFirstLine() throws {
        let script = folder + "/pin.sh"
        let record = folder + "/pin-asked"
        try Data("""
            #!/bin/sh
            printf '%s|%s\\n' "${SSH_ASKPASS_PROMPT-unset}" "$1" >> "\(record)"
            case "$1" in *fail*) exit 1 ;; esac
            printf '123456\\nsecond line\\n'
            """.utf8).write(to: URL(fileURLWithPath: script))
        chmod(script, 0o700)
        let env = ["SSH_ASKPASS": script, "PATH": "/usr/bin:/bin", "SSH_ASKPASS_PROMPT": "confirm"]
        let pin = try XCTUnwrap(AskpassSecret.ask("PIN for 'k':", environment: env))
        XCTAssertEqual(pin.withUnsafeBytes { Array($0) }, Array("123456".utf8))
        XCTAssertNil(AskpassSecret.ask("fail", environment: env))
        XCTAssertNil(AskpassSecret.ask("PIN", environment: ["PATH": "/usr/bin"]))
        XCTAssertEqual(try String(contentsOfFile: record, encoding: .utf8), "unset|PIN for 'k':\nunset|fail\n")
    }

    func testAnAskpassProgramDecidesByItsExitStatusAndIsStoppedAtTheTimeout() throws {
        let script = folder + "/askpass.sh"
        let record = folder + "/asked"
        try Data("""
            #!/bin/sh
            printf '%s|%s\\n' "$SSH_ASKPASS_PROMPT" "$1" >> "\(record)"
            case "$1" in *web-key*) exit 0 ;; *plain*) exit 1 ;; esac
            sleep 30
            """.utf8).write(to: URL(fileURLWithPath: script))
        chmod(script, 0o700)
        let approver = try XCTUnwrap(AskpassApprover(environment: ["SSH_ASKPASS": script, "PATH": "/usr/bin:/bin"], wording: AgentApprovalWording()))
        XCTAssertNil(AskpassApprover(environment: ["PATH": "/usr/bin"], wording: AgentApprovalWording()), "no SSH_ASKPASS: no approver")
        let key = try XCTUnwrap(KeyStore(database: database).find(name: "web-key"))
        let plain = try XCTUnwrap(KeyStore(database: database).find(name: "plain-key"))
        let request = ApprovalRequest(key: key, destination: .none, subject: .unidentified, dataDigest: "SHA256:d", program: nil, chain: [], forwardedThrough: [])
        XCTAssertEqual(approver.ask(request, timeoutSeconds: 60), .allowForGrant)
        XCTAssertEqual(approver.ask(ApprovalRequest(key: plain, destination: .none, subject: .unidentified, dataDigest: "SHA256:d", program: nil, chain: [], forwardedThrough: []), timeoutSeconds: 60), .deny)
        let other = ApprovalRequest(key: key, destination: .unknownServer(hostKeyFingerprint: "SHA256:x"), subject: .unidentified, dataDigest: "SHA256:d",
                                    program: nil, chain: [], forwardedThrough: ["a\u{1b}[2Jb"])
        // The prompt names web-key, so make one that does not: a renamed copy.
        try KeyStore(database: database).update(name: "web-key", KeyChanges(rename: "slow"))
        let slow = ApprovalRequest(key: try XCTUnwrap(KeyStore(database: database).find(name: "slow")), destination: other.destination,
                                   subject: .unidentified, dataDigest: "SHA256:d", program: nil, chain: [], forwardedThrough: other.forwardedThrough)
        XCTAssertEqual(approver.ask(slow, timeoutSeconds: 1), .timeout)
        let asked = try String(contentsOfFile: record, encoding: .utf8)
        XCTAssertTrue(asked.hasPrefix("confirm|Allow a signature with key web-key?\n"), asked)
        XCTAssertFalse(asked.contains("\u{1b}"), "every field is escaped")
        XCTAssertTrue(asked.contains("forwarded through a\\u{1b}[2Jb"), asked)
        XCTAssertEqual(AskpassApprover(environment: ["SSH_ASKPASS": folder + "/missing"], wording: AgentApprovalWording())?.ask(request, timeoutSeconds: 5), .unavailable)
    }

    // MARK: Helpers

    /// `count` connections at once, each binding to web and asking for the same signature.
    private func concurrentSignatures(_ count: Int, _ approvals: AgentApprovals, _ outcomes: Outcomes) -> DispatchGroup {
        let policy = self.policy(approvals, outcomes)
        let bindMessage = bind("web")
        let request = signRequest("web-key", bound: "web")
        let group = DispatchGroup()
        for _ in 0..<count {
            DispatchQueue.global().async(group: group) {
                var c = AgentConversation(peer: Self.peer, policy: policy)
                _ = c.reply(to: bindMessage)
                _ = c.reply(to: request)
            }
        }
        return group
    }

    /// What `ssh-keygen -Y sign -n NAMESPACE` hands the agent for `message`.
    private func sshsigRequest(_ name: String, namespace: String, message: [UInt8]) throws -> [UInt8] {
        signRequest(name, data: try SSHSIGRequest(namespace: namespace, message: message).bytes)
    }

    private final class Clock: @unchecked Sendable {
        var now: Double = 0
    }

    private func listed(_ c: AgentConversation) -> [String] {
        var conversation = c
        return AgentWire.listedComments(conversation.reply(to: [11])) ?? ["(not an identities answer)"]
    }

    private static func sessionID(_ hostKeyBlob: [UInt8]) -> [UInt8] { AgentWire.sessionID(hostKeyBlob: hostKeyBlob) }

    private func bind(_ host: String, forwarding: Bool = false) -> [UInt8] {
        let key = hostKeys[host]!
        let id = Self.sessionID(key.publicKey.blob)
        return AgentWire.sessionBind(hostKeyBlob: key.publicKey.blob, sessionID: id, signature: try! key.sign(id), forwarding: forwarding)
    }

    private func signRequest(_ name: String, data: [UInt8]) -> [UInt8] {
        AgentWire.signRequest(keyBlob: userKeys[name]!.publicKey.blob, data: data)
    }

    private func signRequest(_ name: String, bound: String) -> [UInt8] {
        let key = userKeys[name]!.publicKey
        let blob = hostKeys[bound]!.publicKey.blob
        return signRequest(name, data: AgentWire.hostboundUserAuth(sessionID: Self.sessionID(blob), keyType: key.type, keyBlob: key.blob, hostKeyBlob: blob))
    }

    private func signs(_ c: inout AgentConversation, _ name: String, data: [UInt8]) -> Bool {
        c.reply(to: signRequest(name, data: data)).first == 14
    }

    private func signs(_ c: inout AgentConversation, _ name: String, bound: String) -> Bool {
        c.reply(to: signRequest(name, bound: bound)).first == 14
    }
}
