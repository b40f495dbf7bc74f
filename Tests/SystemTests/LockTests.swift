// The one mutex: exclusive sections across threads, and wait/broadcast.
#if canImport(Glibc)
import Glibc
#endif
import System
import XCTest

final class LockTests: XCTestCase {
    func testIncrementsFromManyThreadsAreNotLost() throws {
        let counter = Lock(0)
        let threads = try (0..<8).map { _ in
            try Thread.spawn { for _ in 0..<10_000 { counter.withLock { $0 += 1 } } }
        }
        threads.forEach(Thread.join)
        XCTAssertEqual(counter.withLock { $0 }, 80_000)
    }

    func testWaitReturnsAfterBroadcast() throws {
        let state = Lock(false)
        let thread = try Thread.spawn {
            state.withLock { $0 = true; state.broadcast() }
        }
        state.withLock { done in while !done { state.wait() } }
        Thread.join(thread)
    }

    func testLockedGuardsTheOwnersFields() throws {
        final class Box: @unchecked Sendable {
            let lock = Lock()
            var values: [Int] = []
        }
        let box = Box()
        let threads = try (0..<4).map { n in try Thread.spawn { for i in 0..<1000 { box.lock.locked { box.values.append(n * 1000 + i) } } } }
        threads.forEach(Thread.join)
        XCTAssertEqual(Set(box.values).count, 4000)
    }
}
