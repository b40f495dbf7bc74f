// Reads the session's secrets from the vault on a thread of its own while ssh starts: ssh
// needs the first key only after the key exchange, so the vault's round trips overlap
// with ssh's start-up and connection. The agent and the askpass socket wait for the
// result; when the vault fails, ssh is stopped and hostbook reports the vault's error
// (exit 1) instead of ssh's status.
#if canImport(Glibc)
import Glibc
#endif
import System

public final class SSHSecretsLoader: @unchecked Sendable {
    /// Broadcast when `result` is set.
    private let lock = Lock()
    private var result: Result<SSHSecrets, Error>?
    private var child: pid_t?
    private var thread = pthread_t()

    public init(_ load: @escaping @Sendable () throws -> SSHSecrets) throws(SSHSessionRefusal) {
        let body: @Sendable () -> Void = { [self] in
            let outcome = Result { try load() }
            lock.locked {
                result = outcome
                if case .failure = outcome, let child { kill(child, SIGTERM) }
                lock.broadcast()
            }
        }
        do { thread = try Thread.spawn(body) } catch {
            throw .threadNotStarted(reason: "\(error.error)")
        }
    }

    deinit {
        Thread.join(thread)
    }

    /// Blocks until the secrets are read.
    public func wait() -> Result<SSHSecrets, Error> {
        lock.locked {
            while result == nil { lock.wait() }
            return result!
        }
    }

    /// ssh's pid: stopped if reading the vault fails (now or later).
    public func attach(_ pid: pid_t) {
        lock.locked {
            child = pid
            if case .failure? = result { kill(pid, SIGTERM) }
        }
    }
}
