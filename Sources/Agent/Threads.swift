// The two threading primitives the socket server needs, over pthreads: a mutex and
// starting a thread that runs a closure.
#if canImport(Glibc)
import Glibc
#endif

public final class Mutex: @unchecked Sendable {
    private var mutex = pthread_mutex_t()

    public init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }

    @discardableResult
    public func locked<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }
}

enum Threads {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// A joinable thread.
    static func spawn(_ body: @escaping @Sendable () -> Void) throws -> pthread_t {
        let box = Unmanaged.passRetained(Box(body))
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box.toOpaque())
        guard rc == 0 else {
            box.release()
            throw SocketError("cannot start a thread: \(String(cString: strerror(rc)))")
        }
        return thread
    }

    static func spawnDetached(_ body: @escaping @Sendable () -> Void) throws {
        let thread = try spawn(body)
        pthread_detach(thread)
    }
}
