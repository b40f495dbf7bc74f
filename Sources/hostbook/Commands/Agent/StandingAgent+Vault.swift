// The standing agent (Sessions' StandingAgent) as `hostbook agent run` starts it: private
// keys from the vault of the database (VaultPrivateKey), a client's program from /proc
// (AgentSocket.executable).
import HostStore
import Sessions
import Vault

extension StandingAgent {
    convenience init(database: HostDatabase, log: AgentLogWriter) {
        let vault = VaultClient(databaseID: database.databaseID)
        self.init(database: database, log: log,
                  readPrivateKey: { try VaultPrivateKey.read($0, from: vault) },
                  clientExecutable: { AgentSocket.executable(of: $0) })
    }
}
