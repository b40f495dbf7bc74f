// Signals held back from the calling thread (pthread_sigmask) while it has changed the
// terminal, so that one that would end the program waits until the terminal is put back:
// the holder checks for it (`takePending`) and ends the wait itself, then `release`
// restores the mask as it was.
#if canImport(Glibc)
import Glibc
#endif

public final class HeldSignals {
    /// The signals that end a program and that a changed terminal must survive: Ctrl-C,
    /// Ctrl-\\, a hang-up and `kill`.
    public static let interrupting: [Int32] = [SIGINT, SIGQUIT, SIGHUP, SIGTERM]

    public let signals: [Int32]
    private var previousMask = sigset_t()
    private var released = false

    /// Blocks `signals` in the calling thread until `release`.
    public init(_ signals: [Int32] = HeldSignals.interrupting) {
        self.signals = signals
        var held = sigset_t()
        sigemptyset(&held)
        for s in signals { sigaddset(&held, s) }
        pthread_sigmask(SIG_BLOCK, &held, &previousMask)
    }

    deinit { release() }

    /// The signal mask as it was before; safe to call more than once. A held signal not
    /// taken by `takePending` is delivered now.
    public func release() {
        guard !released else { return }
        released = true
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }

    /// The first of the held signals that is pending, taken off the pending set (so it is
    /// never delivered); nil when none is.
    public func takePending() -> Int32? {
        var pending = sigset_t()
        guard sigpending(&pending) == 0 else { return nil }
        for s in signals where sigismember(&pending, s) == 1 {
            var one = sigset_t()
            sigemptyset(&one)
            sigaddset(&one, s)
            var taken: Int32 = 0
            _ = sigwait(&one, &taken)
            return s
        }
        return nil
    }
}
