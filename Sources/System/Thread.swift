// Starting a thread that runs a closure (pthreads: the agent's and the loaders' threads
// block in system calls, which Swift concurrency's pool must not).
#if canImport(Glibc)
import Glibc
#endif

public enum Thread {
    /// A thread that could not be started: pthread_create's error.
    public struct StartFailure: Error, Sendable, CustomStringConvertible {
        public let error: Errno
        public var description: String { "cannot start a thread: \(error)" }
    }

    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// A joinable thread running `body` (join it with `join`).
    public static func spawn(_ body: @escaping @Sendable () -> Void) throws(StartFailure) -> pthread_t {
        let box = Unmanaged.passRetained(Box(body))
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box.toOpaque())
        guard rc == 0 else {
            box.release()
            throw StartFailure(error: Errno(rc))
        }
        return thread
    }

    /// A thread nobody joins.
    public static func spawnDetached(_ body: @escaping @Sendable () -> Void) throws(StartFailure) {
        let thread = try spawn(body)
        pthread_detach(thread)
    }

    /// Waits for a thread from `spawn` to end.
    public static func join(_ thread: pthread_t) {
        pthread_join(thread, nil)
    }
}
