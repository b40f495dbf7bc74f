// Reads the session's secrets from the vault on a thread of its own while ssh starts: ssh
// needs the first key only after the key exchange, so the vault's round trips overlap
// with ssh's start-up and connection. The agent and the askpass socket wait for the
// result; when the vault fails, ssh is stopped and hostbook reports the vault's error
// (exit 1) instead of ssh's status.
#if canImport(Glibc)
import Glibc
#endif

final class SSHSecretsLoader: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var done = pthread_cond_t()
    private var result: Result<SSHSecrets, Error>?
    private var child: pid_t?
    private var thread = pthread_t()

    init(_ load: @escaping @Sendable () throws -> SSHSecrets) throws {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&done, nil)
        let body: @Sendable () -> Void = { [self] in
            let outcome = Result { try load() }
            pthread_mutex_lock(&mutex)
            result = outcome
            if case .failure = outcome, let child { kill(child, SIGTERM) }
            pthread_cond_broadcast(&done)
            pthread_mutex_unlock(&mutex)
        }
        let box = Unmanaged.passRetained(Box(body))
        let rc = pthread_create(&thread, nil, { raw in
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, box.toOpaque())
        guard rc == 0 else {
            box.release()
            throw CLIError.failure("cannot start a thread: \(String(cString: strerror(rc)))")
        }
    }

    deinit {
        pthread_join(thread, nil)
        pthread_cond_destroy(&done)
        pthread_mutex_destroy(&mutex)
    }

    /// Blocks until the secrets are read.
    func wait() -> Result<SSHSecrets, Error> {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while result == nil { pthread_cond_wait(&done, &mutex) }
        return result!
    }

    /// ssh's pid: stopped if reading the vault fails (now or later).
    func attach(_ pid: pid_t) {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        child = pid
        if case .failure? = result { kill(pid, SIGTERM) }
    }

    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
