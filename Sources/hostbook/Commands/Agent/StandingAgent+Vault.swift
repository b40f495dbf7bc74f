// The standing agent (Sessions' StandingAgent) as `hostbook agent run` starts it: private
// keys from the vault of the database (VaultPrivateKey), and a confirm key asked about in
// the running `hostbook agent approve` (`terminal`), else through $SSH_ASKPASS of the
// agent's environment (AskpassApprover); with neither, such a key is refused. Keys another
// agent holds sign through the upstream sockets (AgentUpstreamSockets), a token's through
// its module with the PIN asked through $SSH_ASKPASS (TokenAccess); their failures worded
// for the log by KeySignerSetup.explain.
import Agent
import HostStore
import Sessions
import Vault
import Workflows

extension StandingAgent {
    convenience init(database: HostDatabase, log: AgentLogWriter, terminal: TerminalApprover?, upstreams: [String] = []) {
        let vault = VaultClient(databaseID: database.databaseID)
        let approvers: [(any AgentApprover)?] = [terminal, AskpassApprover(environment: ProcessEnvironment.current(), wording: AgentApprovalWording())]
        self.init(database: database, log: log,
                  readPrivateKey: { stored in
                      do { return try VaultPrivateKey.read(stored, from: vault) } catch let e as KeysRefusal {
                          throw AgentKeyUnavailable(message: e.message, hint: e.hint)
                      }
                  },
                  signers: KeySignerSetup.signers(upstreams: upstreams, databasePath: database.path,
                                                  environment: ProcessEnvironment.current(), terminal: false),
                  explain: KeySignerSetup.explain,
                  approver: FirstAvailableApprover(approvers.compactMap { $0 }),
                  wording: AgentApprovalWording(),
                  signWithSecurityKey: { [sign = SecurityKeyAccess.signer(ProcessEnvironment.current())] stored, key, data in
                      try sign(stored.name, key, data)
                  })
    }
}
