// RawMode on a pseudo-terminal: each byte arrives at once (no line editing, Ctrl-C a byte),
// a wait with nothing typed times out, the end of the terminal is `.closed`, and the
// terminal's modes are back after `restore`; a pipe is refused.
#if canImport(Glibc)
import Glibc
#endif
import System
import XCTest

final class RawModeTests: XCTestCase {
    func testBytesArriveAtOnceAndTheModesComeBack() throws {
        let pty = try PseudoTerminal()
        defer { withExtendedLifetime(pty) {} }
        let cooked = pty.localModes
        XCTAssertNotEqual(cooked & tcflag_t(ICANON), 0)
        let mode = try RawMode(FileDescriptor(pty.terminal))
        XCTAssertEqual(pty.localModes & tcflag_t(ICANON | ECHO | ISIG), 0)
        pty.type("ab")
        XCTAssertEqual(try mode.next(milliseconds: 5_000), .bytes(Array("ab".utf8)))
        XCTAssertEqual(try mode.next(milliseconds: 20), .timeout)
        pty.type("\u{3}")
        XCTAssertEqual(try mode.next(milliseconds: 5_000), .bytes([3]), "Ctrl-C is a byte, not a signal")
        mode.restore()
        XCTAssertEqual(pty.localModes, cooked)
        mode.restore()   // a second time changes nothing
        XCTAssertEqual(pty.localModes, cooked)
        XCTAssertEqual(pty.shown(), "", "nothing typed was echoed")
    }

    func testTheEndOfTheTerminalIsClosed() throws {
        let pty = try PseudoTerminal()
        defer { withExtendedLifetime(pty) {} }
        let mode = try RawMode(FileDescriptor(pty.terminal))
        defer { mode.restore() }
        pty.hangUp()
        XCTAssertThrowsError(try mode.next(milliseconds: 5_000)) { error in
            XCTAssertEqual(error as? TerminalInputError, .closed)
        }
    }

    func testAPipeIsRefused() {
        let pipe = TestPipe()
        defer { withExtendedLifetime(pipe) {} }
        XCTAssertThrowsError(try RawMode(FileDescriptor(pipe.readEnd))) { error in
            XCTAssertEqual(error as? Errno, Errno(ENOTTY))
        }
    }
}
