// The `ssh-add -x` / `-X` lock: each failed unlock waits 0.1 s more than the one before
// (up to 10 s), attempts from many connections wait for each other, and only a salted hash
// of the passphrase is kept. The waits are counted through an injected sleeper, not timed.
import Foundation
import XCTest
@testable import Agent
import System
@testable import SecureMemory
#if canImport(Glibc)
import Glibc
#endif

final class AgentLockTests: XCTestCase {
    /// What the lock asked to wait, in order, and how many waits ever overlapped.
    private final class Sleeps: @unchecked Sendable {
        let mutex = Lock()
        var delays: [Duration] = []
        var inside = 0
        var mostAtOnce = 0
    }

    private static func secret(_ text: String) -> SecretBytes { SecretBytes(copying: Array(text.utf8)) }

    func testEachFailedUnlockWaitsLongerAndASuccessStartsAgain() {
        let sleeps = Sleeps()
        let lock = AgentLock(sleep: { d in sleeps.mutex.locked { sleeps.delays.append(d) } })
        XCTAssertFalse(lock.unlock(Self.secret("pw")), "not locked")
        XCTAssertTrue(lock.lock(Self.secret("correct horse")))
        XCTAssertTrue(lock.isLocked)
        XCTAssertFalse(lock.lock(Self.secret("again")), "locked already")
        for guess in ["a", "b", "correct hors", ""] { XCTAssertFalse(lock.unlock(Self.secret(guess))) }
        XCTAssertEqual(sleeps.delays, [.milliseconds(100), .milliseconds(200), .milliseconds(300), .milliseconds(400)])
        XCTAssertTrue(lock.unlock(Self.secret("correct horse")))
        XCTAssertFalse(lock.isLocked)
        XCTAssertEqual(sleeps.delays.count, 4, "no wait after the right passphrase, nor when not locked")
        XCTAssertTrue(lock.lock(Self.secret("second")))
        XCTAssertFalse(lock.unlock(Self.secret("correct horse")))
        XCTAssertEqual(sleeps.delays.last, .milliseconds(100), "the count starts again after an unlock")
        // ssh-agent's cap: 0.1 s per failure, at most 10 s.
        XCTAssertEqual(AgentLock.delay(afterFailures: 1), .milliseconds(100))
        XCTAssertEqual(AgentLock.delay(afterFailures: 100), .seconds(10))
        XCTAssertEqual(AgentLock.delay(afterFailures: 5_000), .seconds(10))
    }

    /// Eight connections guess at once: the attempts run one after another, each waiting
    /// longer than the last, so opening more connections buys no extra guesses.
    func testParallelUnlocksWaitForEachOther() throws {
        let sleeps = Sleeps()
        let lock = AgentLock(sleep: { d in
            sleeps.mutex.locked {
                sleeps.delays.append(d)
                sleeps.inside += 1
                sleeps.mostAtOnce = max(sleeps.mostAtOnce, sleeps.inside)
            }
            // Long enough for an attempt that did not wait its turn to arrive meanwhile.
            usleep(20_000)
            sleeps.mutex.locked { sleeps.inside -= 1 }
        })
        XCTAssertTrue(lock.lock(Self.secret("right")))
        let threads = 8
        let start = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        for i in 0..<threads {
            Thread.detachNewThread {
                start.wait()
                XCTAssertFalse(lock.unlock(Self.secret("wrong \(i)")))
                done.signal()
            }
        }
        for _ in 0..<threads { start.signal() }
        for _ in 0..<threads { done.wait() }
        sleeps.mutex.locked {
            XCTAssertEqual(sleeps.mostAtOnce, 1, "no two failed unlocks wait at the same time")
            XCTAssertEqual(sleeps.delays, (1...threads).map { .milliseconds(100 * $0) })
        }
        XCTAssertTrue(lock.isLocked)
        XCTAssertTrue(lock.unlock(Self.secret("right")))
    }

    func testOnlyASaltedHashOfThePassphraseIsKept() throws {
        let lock = AgentLock(sleep: { _ in })
        let text = "correct horse battery staple, a passphrase longer than any hash"
        weak var given: SecretBytes?
        do {
            let passphrase = Self.secret(text)
            given = passphrase
            XCTAssertTrue(lock.lock(passphrase))
        }
        XCTAssertNil(given, "the lock holds no reference to the passphrase it was given")
        let held = try XCTUnwrap(lock.passphraseHash)
        XCTAssertEqual(held.salt.count, 16)
        XCTAssertEqual(held.hash.count, PassphraseHash.length, "a fixed size, whatever the passphrase's length")
        let stored = held.salt + held.hash.withUnsafeBytes { Array($0) }
        XCTAssertNil(stored.firstRange(of: Array(text.utf8.prefix(8))), "no piece of the passphrase is stored")
        XCTAssertEqual(String(describing: held), "PassphraseHash(redacted)")

        // Salted: the same passphrase hashes differently each time, and each still matches.
        let again = try XCTUnwrap(PassphraseHash(hashing: Self.secret(text)))
        XCTAssertNotEqual(again.salt, held.salt)
        XCTAssertFalse(again.hash.constantTimeEquals(held.hash))
        XCTAssertTrue(again.matches(Self.secret(text)))
        XCTAssertFalse(again.matches(Self.secret(text + " ")))
        XCTAssertNil(PassphraseHash(hashing: Self.secret("")), "an empty passphrase locks nothing (as ssh-agent)")

        XCTAssertTrue(lock.unlock(Self.secret(text)))
        XCTAssertNil(lock.passphraseHash, "nothing is kept once unlocked")
    }
}
