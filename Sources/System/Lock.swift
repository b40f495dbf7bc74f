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
        pthread_cond_init(condition, nil)
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
