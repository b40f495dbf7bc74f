// WindowSize and FileDescriptor.isTerminal: a pseudo-terminal reports the size it was
// given and is a terminal; a pipe is neither.
#if canImport(Glibc)
import Glibc
#endif
import System
import XCTest

final class WindowSizeTests: XCTestCase {
    func testAPseudoTerminalReportsItsSize() throws {
        let pty = try PseudoTerminal(columns: 132, rows: 43)
        defer { withExtendedLifetime(pty) {} }
        XCTAssertTrue(FileDescriptor(pty.terminal).isTerminal)
        XCTAssertEqual(WindowSize.of(FileDescriptor(pty.terminal)), WindowSize(columns: 132, rows: 43))
    }

    func testAPipeHasNoWindowAndIsNoTerminal() {
        let pipe = TestPipe()
        defer { withExtendedLifetime(pipe) {} }
        XCTAssertFalse(FileDescriptor(pipe.readEnd).isTerminal)
        XCTAssertNil(WindowSize.of(FileDescriptor(pipe.readEnd)))
    }
}
