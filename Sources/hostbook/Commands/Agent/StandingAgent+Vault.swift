// The standing agent (Sessions' StandingAgent) as `hostbook agent run` starts it: private
// keys from the vault of the database (VaultPrivateKey), a client's program from /proc
// (AgentSocket.executable), and a confirm key asked about through $SSH_ASKPASS of the
// agent's environment (AskpassApprover; none: such a key is refused).
import HostStore
import Sessions
import Vault

extension StandingAgent {
    convenience init(database: HostDatabase, log: AgentLogWriter) {
        let vault = VaultClient(databaseID: database.databaseID)
        self.init(database: database, log: log,
                  readPrivateKey: { try VaultPrivateKey.read($0, from: vault) },
                  clientExecutable: { AgentSocket.executable(of: $0) },
                  approver: AskpassApprover(environment: ProcessEnvironment.current()))
    }
}
