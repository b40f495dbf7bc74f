// The lock of an agent that `ssh-add -x` / `-X` may lock and unlock, as ssh-agent.c
// process_lock_agent keeps it:
// * only a salted hash of the passphrase is kept (PassphraseHash), never the passphrase;
// * every failed unlock is followed by a delay of 0.1 s for each failure so far, up to
//   10 s, before its reply; a correct unlock clears the count;
// * attempts run one at a time, delays included. ssh-agent serves one request at a time;
//   this agent gives each connection a thread, so without that many connections could
//   guess side by side, each waiting only for its own delay.
// The agent's keys are the caller's: it asks `isLocked` before listing or signing.
#if canImport(Glibc)
import Glibc
#endif
import System
public import SecureMemory

public final class AgentLock: @unchecked Sendable {
    /// The delay added by each failure, and how many failures count (10 s at most).
    public static let delayStep: Duration = .milliseconds(100)
    public static let maxFailures = 100

    /// Held for a whole lock or unlock attempt, delay included.
    private let attempts = Lock()
    /// Guards `held` and `failures`, briefly, so listing and signing never wait for an attempt.
    private let state = Lock()
    private var held: PassphraseHash?
    private var failures = 0
    private let sleep: @Sendable (Duration) -> Void

    /// `sleep` waits after a failed unlock (tests count the calls instead of waiting).
    public init(sleep: @escaping @Sendable (Duration) -> Void = AgentLock.sleep) {
        self.sleep = sleep
    }

    public var isLocked: Bool { state.locked { held != nil } }

    /// The salted hash a locked agent keeps (nil when unlocked).
    var passphraseHash: PassphraseHash? { state.locked { held } }

    /// Locks with `passphrase`; false when already locked or the passphrase is empty.
    public func lock(_ passphrase: SecretBytes) -> Bool {
        attempts.locked {
            guard !isLocked, let hash = PassphraseHash(hashing: passphrase) else { return false }
            state.locked { held = hash }
            return true
        }
    }

    /// Unlocks when `passphrase` is the one locked with; false (after the delay, for a
    /// wrong passphrase) otherwise, and when not locked.
    public func unlock(_ passphrase: SecretBytes) -> Bool {
        attempts.locked {
            guard let hash = passphraseHash else { return false }
            if hash.matches(passphrase) {
                state.locked { held = nil; failures = 0 }
                return true
            }
            let count = state.locked {
                failures = min(failures + 1, Self.maxFailures)
                return failures
            }
            sleep(Self.delay(afterFailures: count))
            return false
        }
    }

    /// How long a failed unlock waits when it is the `failures`th since the last unlock.
    public static func delay(afterFailures failures: Int) -> Duration { delayStep * min(failures, maxFailures) }

    /// Sleeps the calling thread for `duration` (only this connection's thread waits, and
    /// every other lock attempt behind it).
    public static func sleep(_ duration: Duration) {
        Monotonic.sleep(duration)
    }
}
