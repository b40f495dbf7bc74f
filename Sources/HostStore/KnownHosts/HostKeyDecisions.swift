// How many host-key decisions the trust core has made in this process: one for each
// `KnownHostsStore.check` and one for each `acceptedPlainKeys` (which settles every stored
// key of one name at once). `hostbook ssh` makes one per connection plan and one per
// KnownHostsCommand call; the session agent takes the plan's (docs/architecture.md,
// "Counts that stay at their value"). Tests read `made` before and after the work they
// count.
import System

public enum HostKeyDecisions {
    private static let counter = Lock(0)

    /// The decisions made so far in this process.
    public static var made: Int { counter.withLock { $0 } }

    static func count() { counter.withLock { $0 += 1 } }
}
