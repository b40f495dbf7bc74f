// TCPPort, the one rule for what a TCP port may be.
import System
import XCTest

final class TCPPortTests: XCTestCase {
    func testTheRangeIsOneTo65535() {
        XCTAssertEqual(TCPPort.range, 1...65535)
        for n in [1, 22, 2222, 65535] { XCTAssertTrue(TCPPort.isValid(n), "\(n)") }
        for n in [0, -1, -22, 65536, 100_000, Int.max, Int.min] { XCTAssertFalse(TCPPort.isValid(n), "\(n)") }
    }
}
