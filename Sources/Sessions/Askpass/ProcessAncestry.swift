// Which hop's ssh started a process: the askpass helper is a child of the ssh that asks
// (readpass.c ssh_askpass: fork, then exec of SSH_ASKPASS), and the ssh of each jump host is
// a child of the ssh of the hop it carries (sshconnect.c ssh_proxy_connect runs ProxyJump's
// `ssh -W` through `exec` in /bin/sh, so the shell and that ssh are one process). So the
// number of parent links from the helper's parent up to the ssh that hostbook started is the
// hop's place in the chain: 0 for the target, 1 for its jump host, and so on.
#if canImport(Glibc)
import Glibc
#endif
import System

public enum ProcessAncestry {
    /// The parent of `pid`, nil when the process is gone (ProcessChain.parent).
    public static func parent(of pid: pid_t) -> pid_t? { ProcessChain.parent(of: pid) }

    /// How many parent links lead from `pid` up to `root`: 0 when `pid` is `root`; nil when
    /// `root` is not reached within `limit` links.
    public static func distance(from pid: pid_t, to root: pid_t, limit: Int) -> Int? {
        var current = pid
        for steps in 0...limit {
            if current == root { return steps }
            guard let next = parent(of: current), next > 1 else { return nil }
            current = next
        }
        return nil
    }
}
