// What `hostbook agent run` brings to its standing agent (Workflows' StandingAgentSetup): a
// confirm key asked about in the running `hostbook agent approve` (`terminal`), else through
// $SSH_ASKPASS of the agent's environment (AskpassApprover), with neither refused; keys
// another agent holds signed through the upstream sockets, a token's with its PIN asked
// through $SSH_ASKPASS, a security key's too (KeySignerSetup, TokenAccess,
// SecurityKeyAccess); every failure in the log's words.
import System
import Agent
import HostStore
import Sessions
import Workflows

enum StandingAgentParts {
    /// `database`: where a token key's place is read when it signs (the agent's own handle);
    /// `environment`: the command's (SSH_ASKPASS, the PIN prompts' askpass).
    static func make(database: SharedDatabase, terminal: TerminalApprover?, upstreams: [String],
                     environment: [String: String]) -> StandingAgentSetup.Parts {
        let approvers: [(any AgentApprover)?] = [terminal, AskpassApprover(environment: environment, wording: AgentApprovalWording())]
        return StandingAgentSetup.Parts(
            approver: FirstAvailableApprover(approvers.compactMap { $0 }),
            wording: AgentApprovalWording(),
            signers: KeySignerSetup.signers(upstreams: upstreams, database: database, environment: environment, terminal: false),
            explain: KeySignerSetup.explain,
            unavailable: { AgentKeyUnavailable(message: $0.message, hint: $0.hint) })
    }
}
