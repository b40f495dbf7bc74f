// HeldSignals: a held signal stays pending until taken (then it is gone), only the held
// ones are taken, and release puts the mask back as it was.
#if canImport(Glibc)
import Glibc
#endif
import System
import XCTest

final class HeldSignalsTests: XCTestCase {
    private func isBlocked(_ signal: Int32) -> Bool {
        var mask = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &mask)
        return sigismember(&mask, signal) == 1
    }

    func testAHeldSignalIsTakenOnceAndTheMaskComesBack() {
        // Ignored as well as held, so that a failure here cannot end the test run.
        let previous = (signal(SIGUSR1, SIG_IGN), signal(SIGUSR2, SIG_IGN))
        defer { signal(SIGUSR1, previous.0); signal(SIGUSR2, previous.1) }
        XCTAssertFalse(isBlocked(SIGUSR1))
        let held = HeldSignals([SIGUSR1])
        XCTAssertTrue(isBlocked(SIGUSR1))
        XCTAssertNil(held.takePending())
        raise(SIGUSR1)
        XCTAssertEqual(held.takePending(), SIGUSR1)
        XCTAssertNil(held.takePending(), "taken once")
        held.release()
        XCTAssertFalse(isBlocked(SIGUSR1))
        held.release()
        XCTAssertFalse(isBlocked(SIGUSR1))
        XCTAssertEqual(HeldSignals.interrupting, [SIGINT, SIGQUIT, SIGHUP, SIGTERM])
    }
}
