// The askpass server of `hostbook ssh` (Sessions/Askpass), in-process: a real Unix socket in
// a private folder, this test process as the helper (SSHAskpass.ask), its parent process
// standing in for the ssh that asks. A stored password is answered once, only for its exact
// prompt and only to the hop it belongs to; nothing is answered before ssh is attached, to a
// helper whose hop cannot be told, to a confirmation, or for a prompt the session does not
// own. The passwords are read once, at the first prompt. No hostbook binary runs.
import Foundation
import XCTest
import Agent
import System
import SecureMemory
import Sessions

final class SSHAskpassTests: XCTestCase {
    private var runtime: String!

    override func setUpWithError() throws {
        var template = Array((NSTemporaryDirectory() + "/askpass-XXXXXX").utf8CString)
        runtime = try XCTUnwrap(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
    }

    override func tearDown() {
        if let runtime { try? FileManager.default.removeItem(atPath: runtime) }
    }

    private final class Reads: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func read() { lock.lock(); count += 1; lock.unlock() }
        var total: Int { lock.lock(); defer { lock.unlock() }; return count }
    }

    func testAnOwnedPromptIsAnsweredOnceToItsOwnHopAndNothingElseIs() throws {
        let environment = ["XDG_RUNTIME_DIR": runtime!]
        let folder = try PrivateSocketDirectory.prepare(environment: environment)
        let prompt = SSHAskpass.passwordPrompt(user: "ops", hostname: "Gate.Example")
        XCTAssertEqual(prompt, "ops@gate.example's password: ", "ssh lower-cases the host name in its prompt")
        let reads = Reads()
        let server = try SSHAskpass.Server(folder: folder, passwords: {
            reads.read()
            return [SSHPasswordAnswer(hop: 0, host: "web", prompt: prompt, password: SecretBytes(copying: Array("s3cret".utf8))),
                    SSHPasswordAnswer(hop: 1, host: "jump", prompt: "ops@jump.example's password: ", password: SecretBytes(copying: Array("other".utf8)))]
        })
        defer { server.stop() }
        var helper = environment
        helper[SSHAskpass.sessionVariable] = server.identifier
        func ask(_ text: String, _ extra: [String: String] = [:]) -> String? {
            SSHAskpass.ask(prompt: text, environment: helper.merging(extra) { $1 })
                .map { answer in answer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
        }

        XCTAssertNil(ask(prompt), "no ssh attached yet")
        server.attach(sshPID: getpid())
        XCTAssertNil(ask(prompt), "the helper's parent does not lead to the attached ssh: its hop cannot be told")
        XCTAssertEqual(reads.total, 0, "nothing read for a helper that gets no answer")

        // This process's parent is the ssh that asks: the helper is on hop 0 (the target).
        server.attach(sshPID: getppid())
        XCTAssertNil(ask("Enter passphrase for key '/k': "), "not a prompt the session owns")
        XCTAssertNil(ask("ops@jump.example's password: "), "hop 1's password is not answered to hop 0")
        XCTAssertNil(ask(prompt, ["SSH_ASKPASS_PROMPT": "confirm"]), "confirmations are never answered")
        XCTAssertEqual(ask(prompt), "s3cret")
        XCTAssertNil(ask(prompt), "answered once: a second prompt after a wrong password gets nothing")
        XCTAssertEqual(reads.total, 1, "the passwords are read once, at the first prompt")

        // A session identifier that is not the server's, or not hex, reaches no socket.
        helper[SSHAskpass.sessionVariable] = "0123"
        XCTAssertNil(ask(prompt))
        helper[SSHAskpass.sessionVariable] = "../x"
        XCTAssertNil(ask(prompt))
    }
}
