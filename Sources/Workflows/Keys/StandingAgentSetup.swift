// The standing agent (Sessions' StandingAgent) as `hostbook agent run` starts it: private
// keys read from the vault of its database (VaultPrivateKey), a refusal there turned into
// the log's words by the caller; the signers of keys held elsewhere (another agent's, a
// token's) and of the handles the vault holds (a security key's), the approvers and the
// wording come from the caller, which owns the prompts and the words.
import Agent
import HostStore
import KeyFormats
import Sessions
import Vault

public enum StandingAgentSetup {
    /// What the caller brings: the prompts (approvers, PINs) and the words.
    public struct Parts: Sendable {
        public var approver: any AgentApprover
        public var wording: any AgentWording
        /// The keys whose private half is not in the vault (KeyLocation), one provider each,
        /// and those whose vault item is a handle, one handle signer each.
        public var signers: KeySigners
        /// An upstream's or a token's failure in the log's words.
        public var explain: @Sendable (any Error) -> AgentKeyUnavailable
        /// A vault key that cannot be read, in the log's words.
        public var unavailable: @Sendable (KeysRefusal) -> AgentKeyUnavailable

        public init(approver: any AgentApprover, wording: any AgentWording, signers: KeySigners,
                    explain: @escaping @Sendable (any Error) -> AgentKeyUnavailable,
                    unavailable: @escaping @Sendable (KeysRefusal) -> AgentKeyUnavailable) {
            self.approver = approver
            self.wording = wording
            self.signers = signers
            self.explain = explain
            self.unavailable = unavailable
        }
    }

    /// The agent over `database`, logging to `log`.
    public static func agent(database: HostDatabase, log: AgentLogWriter, _ parts: Parts) -> StandingAgent {
        let vault = VaultClient(databaseID: database.databaseID)
        let unavailable = parts.unavailable
        return StandingAgent(database: database, log: log,
                             readPrivateKey: { stored in
                                 do { return try VaultPrivateKey.read(stored, from: vault) } catch let e as KeysRefusal {
                                     throw unavailable(e)
                                 }
                             },
                             signers: parts.signers,
                             explain: parts.explain,
                             approver: parts.approver,
                             wording: parts.wording)
    }
}
