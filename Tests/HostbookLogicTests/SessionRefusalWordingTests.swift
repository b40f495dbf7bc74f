// The words of the Sessions library's refusals (SessionRefusal, worded by the executable's
// SessionRefusal+Presentation): the lines `Hostbook.report` prints for each case that
// `hostbook ssh`'s plan (SSHPlan), its ssh configuration (SSHSessionConfig) and a signature
// through the agent (AgentSSHSIGSigner) throw, byte for byte as they were when the library
// worded them, outside text escaped, and the documented exit code. Which case each
// situation throws is SessionsTests' (SSHPlanTests); the binary's stderr is HostbookTests'.
import CommandLineKit
@testable import hostbook
import HostStore
import Sessions
import XCTest

final class SessionRefusalWordingTests: XCTestCase {
    /// What `Hostbook.report` prints for `refusal`.
    private func reported(_ refusal: SessionRefusal) -> String {
        var text: TerminalText = "hostbook: \(refusal.message)\n"
        if let hint = refusal.hint { text += "\(hint)\n" }
        return text.text
    }

    func testAPlansRefusalsAreWordedAndEscaped() {
        let cases: [(SessionRefusal, ExitCode, String)] = [
            (.hostNotFound(name: "bad\u{1b}[2Jname", nearest: nil), .notFound,
             "hostbook: no host named 'bad\\u{1b}[2Jname'\nRun 'hostbook list' to see the saved hosts, or 'hostbook add' to add one.\n"),
            (.hostNotFound(name: "devbx", nearest: "devbox"), .notFound,
             "hostbook: no host named 'devbx'\nDid you mean 'devbox'? Run 'hostbook ssh devbox' to connect to it.\n"),
            (.snippetNotFound(name: "nope"), .notFound,
             "hostbook: no snippet named 'nope'\nRun 'hostbook snippets list' to see the snippets.\n"),
            (.jumpChainLoops(host: "c", at: "c"), .failure,
             "hostbook: the jump hosts of 'c' form a loop at 'c'\nFix it with 'hostbook edit NAME --no-jump' on one of them.\n"),
            (.jumpChainTooLong(host: "h1"), .failure,
             "hostbook: \(JumpChain.tooLongMessage("h1"))\nShorten it with 'hostbook edit NAME --jump' or '--no-jump'.\n"),
            (.jumpHostMissing(jump: "j\u{7f}", of: "web"), .notFound, "hostbook: the jump host 'j\\u{7f}' of 'web' does not exist\n"),
            (.hostKeyMissing(key: "gone", host: "web"), .notFound, "hostbook: the key 'gone' of host 'web' does not exist\n"),
            (.sshConfigNotWritable(reason: "a line break in HostName"), .failure,
             "hostbook: cannot write the ssh configuration: a line break in HostName\nRename the host (hostbook edit NAME --rename NEW) to a plain name.\n"),
        ]
        for (refusal, code, text) in cases {
            XCTAssertEqual(reported(refusal), text)
            XCTAssertEqual(refusal.exitCode, code, "\(refusal)")
        }
    }

    func testASignatureThroughTheAgentSaysWhatAnsweredAndWhatToDo() {
        let socket = "/run/user/1000/hostbook/agent\u{1b}.sock"
        let shown = "/run/user/1000/hostbook/agent\\u{1b}.sock"
        let cases: [(SessionRefusal, String)] = [
            (.agentNotRunning(socket: socket, purpose: "bundles"),
             "hostbook: hostbook's agent is not running (nothing answers at \(shown)); bundles are signed through it\n"
                + "Start it with 'eval \"$(hostbook agent start)\"', then run this again.\n"),
            (.agentDidNotAnswer(socket: socket),
             "hostbook: the agent at \(shown) did not answer the signature request\n"
                + "Restart it: 'hostbook agent stop', then 'eval \"$(hostbook agent start)\"'.\n"),
            (.agentLocked(socket: socket),
             "hostbook: the agent at \(shown) is locked (it offers no keys)\nUnlock it with 'SSH_AUTH_SOCK=\(shown) ssh-add -X', then run this again.\n"),
            (.agentRefusedToSign(key: "deploy"),
             "hostbook: the agent refused to sign with key 'deploy'\n"
                + "See why with 'hostbook agent log' (a locked vault, a declined approval, a key restricted to other namespaces), then run this again.\n"),
            (.agentSignatureDoesNotVerify(key: "deploy", reason: "bad signature"),
             "hostbook: the agent's signature with key 'deploy' does not verify: bad signature\n"),
        ]
        for (refusal, text) in cases {
            XCTAssertEqual(reported(refusal), text)
            XCTAssertEqual(refusal.exitCode, .failure, "\(refusal)")
        }
    }
}
