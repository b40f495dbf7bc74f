// `hostbook agent run`'s work once its agent is made: the signals it stops on, blocked
// before any thread starts; the socket it listens on; and the wait until one of them comes,
// wiping the keys read from the vault whenever the vault is found locked (every 15 s).
#if canImport(Glibc)
import Glibc
#endif
import Agent
import HostStore
import Sessions
import Vault

public enum StandingAgentService {
    /// SIGTERM, SIGINT and SIGHUP blocked for this process, to be waited for by `serve`.
    /// Call it before any thread starts, so that only `serve` receives them.
    public static func blockStopSignals() -> sigset_t {
        var waited = sigset_t()
        sigemptyset(&waited)
        for s in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&waited, s) }
        pthread_sigmask(SIG_BLOCK, &waited, nil)
        return waited
    }

    /// Serves `agent` at `path` until one of `signals` comes; then stops the server, the
    /// terminal approver and the log, wiping the keys. The number of log entries that were
    /// not written (the log's queue was full, or the database refused them).
    public static func serve(_ agent: StandingAgent, at path: String, log: AgentLogWriter, terminal: TerminalApprover?,
                             signals: sigset_t) throws(AgentRefusal) -> Int {
        var waited = signals
        let server: AgentServer
        do { server = try AgentServer(socketPath: path, policy: agent.policy) } catch {
            terminal?.stop()
            log.stop()
            throw .serverNotStarted(reason: "\(error)")
        }
        var timeout = timespec(tv_sec: 15, tv_nsec: 0)
        while true {
            let s = sigtimedwait(&waited, nil, &timeout)
            if s > 0 { break }
            // Every 15 s: a locked (or gone) vault wipes the keys read from it.
            if s < 0 && errno == EAGAIN && VaultClient.status() != .ok { agent.wipe() }
        }
        server.stop()
        terminal?.stop()
        agent.wipe()
        log.stop()
        return log.counters.dropped
    }
}
