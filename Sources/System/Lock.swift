// The one mutex of the package: a pthread mutex with a condition variable, guarding a
// value (`Lock<State>`, `withLock`) or a critical section over the owner's own fields
// (`Lock()`, `locked`). `wait()` and `broadcast()` are for a thread that must wait, under
// the lock, until another changes what it guards.
#if canImport(Glibc)
import Glibc
#endif

public final class Lock<State>: @unchecked Sendable {
    // Allocated, never moved: pthread objects must keep their address.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var state: State

    public init(_ initial: sending State) {
        state = initial
        pthread_mutex_init(mutex, nil)
        // Timed waits count on the monotonic clock (a changed wall clock moves no deadline).
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the lock held and the guarded value in hand.
    @discardableResult
    public func withLock<R>(_ body: (inout sending State) throws -> sending R) rethrows -> sending R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// Only with the lock held (inside `withLock`/`locked`): releases it until `broadcast`,
    /// then holds it again. Callers check their condition in a loop (wake-ups may be spurious).
    public func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// `wait()` until `deadline` (Monotonic.seconds()) at the latest; false when it passed.
    @discardableResult
    public func wait(until deadline: Double) -> Bool {
        guard deadline.isFinite else { wait(); return true }
        let whole = deadline.rounded(.down)
        var t = timespec(tv_sec: Int(whole), tv_nsec: Int((deadline - whole) * 1e9))
        return pthread_cond_timedwait(condition, mutex, &t) != ETIMEDOUT
    }

    /// Wakes every thread in `wait()`.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }
}

extension Lock where State == Void {
    public convenience init() { self.init(()) }

    /// Runs `body` with the lock held.
    @discardableResult
    public func locked<R>(_ body: () throws -> R) rethrows -> R {
        try withLock { _ in try body() }
    }
}
