// LengthPrefixedFrame: frames round-trip, and a read with a deadline bounds the whole frame,
// not only the wait for its first byte (a peer that stalls mid-frame is not waited for).
#if canImport(Glibc)
import Glibc
#endif
import System
import XCTest

final class LengthPrefixedFrameTests: XCTestCase {
    var ends: [Int32] = [-1, -1]

    override func setUpWithError() throws {
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends), 0)
    }

    override func tearDownWithError() throws {
        for fd in ends where fd >= 0 { close(fd) }
    }

    func send(_ bytes: [UInt8]) {
        XCTAssertEqual(bytes.withUnsafeBytes { Glibc.write(ends[1], $0.baseAddress, $0.count) }, bytes.count)
    }

    func testAWholeFrameIsRead() {
        XCTAssertTrue(LengthPrefixedFrame.write([1, 2, 3], to: ends[1]))
        XCTAssertEqual(LengthPrefixedFrame.read(from: ends[0], maxLength: 16, timeoutMilliseconds: 1000), [1, 2, 3])
    }

    /// Part of the length, then nothing (the peer stays open): nil, not a wait for ever.
    func testAFrameCutShortInItsLengthEndsAtTheDeadline() {
        send([0, 0])
        XCTAssertNil(LengthPrefixedFrame.read(from: ends[0], maxLength: 16, timeoutMilliseconds: 20))
    }

    /// The length and part of the body, then nothing: nil.
    func testAFrameCutShortInItsBodyEndsAtTheDeadline() {
        send([0, 0, 0, 5, 1, 2])
        XCTAssertNil(LengthPrefixedFrame.read(from: ends[0], maxLength: 16, timeoutMilliseconds: 20))
    }

    func testALengthOutOfBoundsIsNil() {
        send([0, 0, 0, 17])
        XCTAssertNil(LengthPrefixedFrame.read(from: ends[0], maxLength: 16, timeoutMilliseconds: 1000))
    }
}
