// VisibleLine: a line ends at LF or the end of input, a CR is dropped, nothing beyond the
// line is read, an empty input and a line past the limit are errors.
#if canImport(Glibc)
import Glibc
#endif
import System
import XCTest

final class VisibleLineTests: XCTestCase {
    func testLinesEndAtNewlineOrTheEndAndDropCarriageReturns() throws {
        let pipe = TestPipe("  yes\r\nn\ro")
        defer { withExtendedLifetime(pipe) {} }
        pipe.endInput()
        let input = FileDescriptor(pipe.readEnd)
        XCTAssertEqual(try VisibleLine.read(from: input, limit: 100), Array("  yes".utf8))
        XCTAssertEqual(try VisibleLine.read(from: input, limit: 100), Array("no".utf8))
        XCTAssertThrowsError(try VisibleLine.read(from: input, limit: 100)) { error in
            XCTAssertEqual(error as? VisibleLine.Failure, .endOfInput)
        }
    }

    func testALineLongerThanTheLimitIsRefused() {
        let pipe = TestPipe("abcd\n")
        defer { withExtendedLifetime(pipe) {} }
        XCTAssertThrowsError(try VisibleLine.read(from: FileDescriptor(pipe.readEnd), limit: 3)) { error in
            XCTAssertEqual(error as? VisibleLine.Failure, .tooLong)
        }
        let exact = TestPipe("abc\n")
        XCTAssertEqual(try VisibleLine.read(from: FileDescriptor(exact.readEnd), limit: 3), Array("abc".utf8))
        withExtendedLifetime(exact) {}
    }
}
