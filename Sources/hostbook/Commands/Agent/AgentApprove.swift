// `hostbook agent approve`: answers the standing agent's approval requests in a terminal
// (a key saved with `keys edit NAME --confirm`), for a session without a desktop askpass.
// It connects to the agent's private approval socket (Workflows' ApproverConnection), shows each request as the
// agent describes it and sends back y, n, or a (yes for the key's grant). Only one answers
// at a time: a second is refused with one line, and the first says that it tried. It runs
// until the agent stops, end of input, or Ctrl-C.
import CommandLineKit
import System
import Sessions
import Workflows

enum AgentApprove {
    static let spec = CommandSpec(
        ["agent", "approve"], summary: "Answer the standing agent's approval requests in this terminal",
        discussion: """
        Shows each signature the agent is asked for with a key saved with 'keys edit NAME \
        --confirm' (the key, the destination, the requesting processes) and takes y (allow this \
        one), n (refuse it) or a (allow, and let the key's --grant cover the same key, \
        destination, program and namespace; offered only when a grant can be made, with what it \
        covers just above). Any other answer is told the choices and asked again. Each answer \
        is for the one request shown. While \
        it runs, the agent asks here before it tries $SSH_ASKPASS. One runs at a time: another \
        is refused (exit 1). Runs until the agent stops, end of input (Ctrl-D) or Ctrl-C.
        """,
        options: [AgentCommands.socketOption],
        run: run)

    static func run(_ inv: Invocation) throws {
        let agentPath = try AgentSocket.path(inv)
        try inv.requirePrompt(for: "a terminal to answer on", alternative: "$SSH_ASKPASS in the agent's environment")
        let connection = try ApproverConnection(agentSocket: agentPath)
        inv.note("Answering the approval requests of the agent at \(agentPath.escapedForTerminal). Ctrl-D or Ctrl-C stops.")
        while let event = connection.next() {
            guard case .question(let id, let grant, let prompt) = event else {
                if case .another(let pid) = event {
                    inv.note("Another 'hostbook agent approve' (pid \(pid)) tried to answer the agent's requests; it was refused.")
                }
                continue
            }
            var shown: TerminalText = "\n"
            for line in prompt.split(separator: "\n", omittingEmptySubsequences: false) { shown += "\(String(line))\n" }
            Output.write(shown, to: .standardError)
            let answer: ApprovalAnswer
            do { answer = try read(ApprovalChoices(grant: grant)) } catch { return }   // end of input
            guard connection.answer(id: id, answer) else { break }
            switch answer {
            case .allowForGrant: inv.note(grant.map { "Allowed; the same key, destination, program and namespace are allowed for \($0)." } ?? "Allowed.")
            case .allowOnce: inv.note("Allowed once.")
            default: inv.note("Refused.")
            }
        }
        inv.note("The agent stopped.")
    }

    /// y, n, or a (only when the key has a grant); a bad answer is told what to answer and
    /// asked again.
    private static func read(_ choices: ApprovalChoices) throws -> ApprovalAnswer {
        while true {
            if let answer = choices.answer(try Terminal.readLine(prompt: choices.question)) { return answer }
            Output.write(choices.badAnswer + "\n", to: .standardError)
        }
    }
}
