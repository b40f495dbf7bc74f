// TimedLine on a pseudo-terminal: a line ends at CR or LF and leaves what follows unread, a
// line at the limit ends there, no line before the deadline and a hung-up terminal are errors.
#if canImport(Glibc)
import Glibc
#endif
import System
import XCTest

final class TimedLineTests: XCTestCase {
    private func makeRaw(_ pty: PseudoTerminal) {
        var settings = termios()
        precondition(tcgetattr(pty.terminal, &settings) == 0)
        cfmakeraw(&settings)
        precondition(tcsetattr(pty.terminal, TCSANOW, &settings) == 0)
    }

    private var later: Int64 { Monotonic.milliseconds() + 10_000 }

    func testALineEndsAtCarriageReturnOrNewlineAndWhatFollowsStaysUnread() throws {
        let pty = try PseudoTerminal()
        makeRaw(pty)
        pty.type(" y \rno\nrest")
        let tty = FileDescriptor(pty.terminal)
        XCTAssertEqual(try TimedLine.read(from: tty, limit: 256, deadline: later), Array(" y ".utf8))
        XCTAssertEqual(try TimedLine.read(from: tty, limit: 256, deadline: later), Array("no".utf8))
        XCTAssertEqual(try TimedLine.read(from: tty, limit: 4, deadline: later), Array("rest".utf8))
    }

    func testALineAtTheLimitEndsThere() throws {
        let pty = try PseudoTerminal()
        makeRaw(pty)
        pty.type("abcdef\n")
        let tty = FileDescriptor(pty.terminal)
        XCTAssertEqual(try TimedLine.read(from: tty, limit: 3, deadline: later), Array("abc".utf8))
        XCTAssertEqual(try TimedLine.read(from: tty, limit: 3, deadline: later), Array("def".utf8))
    }

    func testNoLineBeforeTheDeadlineTimesOut() throws {
        let pty = try PseudoTerminal()
        makeRaw(pty)
        pty.type("half")
        XCTAssertThrowsError(try TimedLine.read(from: FileDescriptor(pty.terminal), limit: 256, deadline: Monotonic.milliseconds() + 50)) { error in
            XCTAssertEqual(error as? TimedLine.Failure, .timedOut)
        }
        XCTAssertThrowsError(try TimedLine.read(from: FileDescriptor(pty.terminal), limit: 256, deadline: Monotonic.milliseconds())) { error in
            XCTAssertEqual(error as? TimedLine.Failure, .timedOut)
        }
    }

    func testAHungUpTerminalEndsTheInput() throws {
        let pty = try PseudoTerminal()
        makeRaw(pty)
        pty.hangUp()
        XCTAssertThrowsError(try TimedLine.read(from: FileDescriptor(pty.terminal), limit: 256, deadline: later)) { error in
            guard let failure = error as? TimedLine.Failure else { return XCTFail("\(error)") }
            XCTAssertTrue(failure == .endOfInput || failure == .unreadable(Errno(EIO)), "\(failure)")
        }
    }
}
