// How the agent of a `hostbook ssh` session asks about a key saved with `keys edit NAME
// --confirm`: on the session's own terminal (/dev/tty), while ssh authenticates (ssh reads
// nothing from the terminal then, and has not yet made it raw). One question at a time;
// no answer within the time refuses. Without a terminal (or with --no-input) there is
// nobody to ask, and the key is refused.
import CommandLineKit
import System
import Sessions

final class SSHTerminalApprover: AgentApprover, @unchecked Sendable {
    private let lock = Lock()

    /// nil when hostbook may not ask on a terminal.
    static func ifAllowed(noInput: Bool) -> SSHTerminalApprover? {
        noInput || !FileDescriptor.standardInput.isTerminal ? nil : SSHTerminalApprover()
    }

    func ask(_ request: ApprovalRequest, timeoutSeconds: Int) -> ApprovalAnswer {
        lock.locked {
            guard let tty = ControllingTerminal.open() else { return .unavailable }
            defer { tty.close() }
            let choices = ApprovalChoices(grant: request.mayGrant ? ApprovalRequest.durationText(request.key.grantSeconds) : nil)
            var text: TerminalText = "\r\nhostbook: "
            let wording = AgentApprovalWording()
            for line in wording.promptLines(request) { text += "\(line)\r\n" }
            if let sentence = wording.grantSentence(request, choice: "[a]") { text += "\(sentence)\r\n" }
            guard Output.write(text + choices.question, to: tty) else { return .unavailable }
            let deadline = Monotonic.milliseconds() + Int64(timeoutSeconds) * 1000
            while true {
                guard let line = Self.readLine(tty, deadline: deadline) else {
                    _ = Output.write("\r\nhostbook: no answer; refused.\r\n", to: tty)
                    return .timeout
                }
                if let answer = choices.answer(line) { return answer }
                _ = Output.write(choices.badAnswer + "\r\n" + choices.question, to: tty)
            }
        }
    }

    /// One line typed on `tty` (spaces around it removed); nil at the deadline or end of input.
    private static func readLine(_ tty: FileDescriptor, deadline: Int64) -> String? {
        guard let bytes = try? TimedLine.read(from: tty, limit: 256, deadline: deadline) else { return nil }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: " \t")
    }
}
