// Keeping a process's secrets out of core dumps and away from other processes of the same
// user: not dumpable (prctl PR_SET_DUMPABLE 0: no core file, no ptrace attach or
// /proc/PID/mem reads by unprivileged processes) and a core size limit of 0, so a crash
// while a passphrase or decrypted key is in memory writes nothing to disk.
#if canImport(Glibc)
import Glibc
#endif
internal import CSodium

public enum ProcessProtection {
    /// Turns core dumps off for this process (and what it execs: the rlimit is inherited).
    /// Returns true when both steps took effect. Call first thing in `main`.
    @discardableResult
    public static func disableCoreDumps() -> Bool {
        let undumpable = hostbook_prctl_set_undumpable() == 0
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        let noCore = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none) == 0
        return undumpable && noCore
    }

    /// Whether this process may be dumped (PR_GET_DUMPABLE).
    public static var isDumpable: Bool { hostbook_prctl_get_dumpable() != 0 }

    /// The current core file size limit (RLIMIT_CORE soft limit), in bytes.
    public static var coreSizeLimit: UInt64 {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit) == 0 else { return .max }
        return UInt64(limit.rlim_cur)
    }
}
