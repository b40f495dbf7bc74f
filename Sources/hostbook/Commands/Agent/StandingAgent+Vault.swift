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
                  readPrivateKey: { stored in
                      do { return try VaultPrivateKey.read(stored, from: vault) } catch let e as CLIError {
                          throw AgentKeyUnavailable(reason: e.message + (e.hint.map { "; " + $0 } ?? ""))
                      }
                  },
                  clientExecutable: { AgentSocket.executable(of: $0) })
    }
}
