// Asking on the desktop, as ssh-agent asks for a key added with `ssh-add -c`
// (ssh-agent.c confirm_key → readpass.c ask_permission → ssh_askpass): the program named by
// SSH_ASKPASS runs with SSH_ASKPASS_PROMPT=confirm in its environment and the prompt as its
// only argument; it allows when it exits 0 and prints nothing, or "yes" (ask_permission's
// test), and its "yes" counts for the key's grant (`--grant`), when it has one. Unlike ssh, no DISPLAY is required: whoever set SSH_ASKPASS for the agent chose it.
// The agent's environment is passed on (the askpass needs DISPLAY, WAYLAND_DISPLAY and the
// D-Bus session of the desktop). The requester's own terminal is told that the request waits
// for the askpass. The prompt and that line are the executable's words (AgentWording).
#if canImport(Glibc)
import Glibc
#endif
import System

public struct AskpassApprover: AgentApprover {
    /// The askpass program (an absolute path, or a name looked up in PATH).
    public let program: String
    private let environment: [String]

    private let searchPath: String?
    private let wording: any AgentWording

    /// The approver for the agent's environment: nil when SSH_ASKPASS is unset or empty.
    /// `wording` words each question.
    public init?(environment: [String: String], wording: any AgentWording) {
        guard let program = environment["SSH_ASKPASS"], !program.isEmpty else { return nil }
        self.program = program
        self.wording = wording
        self.searchPath = environment["PATH"]
        var env = environment
        env["SSH_ASKPASS_PROMPT"] = "confirm"
        self.environment = Spawn.Options.environment(env)
    }

    public func ask(_ request: ApprovalRequest, timeoutSeconds: Int) -> ApprovalAnswer {
        guard let path = ExecutablePath.find(program, searchPath: searchPath) else { return .unavailable }
        request.tellRequester(wording.waitingNotice(request, approver: .askpass(program: program)))
        let options = Spawn.Options(defaultSignals: [SIGPIPE], environment: environment)
        // Its yes is also the grant's: the prompt says what that covers.
        let prompt = wording.promptWithGrant(request, choice: "Yes")
        guard let result = try? CapturedProcess.run(path, [program, prompt], options: options, limit: 256,
                                                    timeoutMilliseconds: Int64(timeoutSeconds) * 1000) else { return .unavailable }
        if result.timedOut { return .timeout }
        guard result.status == .exited(0) else { return .deny }
        let answer = String(decoding: result.stdout.prefix { $0 != 0x0a && $0 != 0x0d }, as: UTF8.self)
        return answer.isEmpty || answer.lowercased() == "yes" ? .allowForGrant : .deny
    }
}
