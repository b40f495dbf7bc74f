// SecretEntry on a pseudo-terminal: echo off while a line is typed (only its newline
// echoed), each line read without consuming the next, the terminal's modes back after; a
// held signal ends the entry as an error; input that is not a terminal read as it is.
#if canImport(Glibc)
import Glibc
#endif
import System
import XCTest

final class SecretEntryTests: XCTestCase {
    private func line(_ entry: SecretEntry) throws -> (String, SecretEntry.LineEnd) {
        var bytes: [UInt8] = []
        let end = try entry.readLine { bytes.append($0) }
        return (String(decoding: bytes, as: UTF8.self), end)
    }

    func testEchoIsOffWhileTheLineIsTypedAndBackAfter() throws {
        let pty = try PseudoTerminal()
        defer { withExtendedLifetime(pty) {} }
        XCTAssertNotEqual(pty.localModes & tcflag_t(ECHO), 0)
        try SecretEntry.with(input: FileDescriptor(pty.terminal)) { entry in
            XCTAssertTrue(entry.echoIsOff)
            XCTAssertEqual(pty.localModes & tcflag_t(ECHO), 0)
            XCTAssertNotEqual(pty.localModes & tcflag_t(ECHONL), 0)
            pty.type("hunter2\nsecond\n")
            let (first, end) = try line(entry)
            XCTAssertEqual(first, "hunter2")
            XCTAssertEqual(end, .newline)
            XCTAssertEqual(try line(entry).0, "second", "nothing after the first line was consumed")
        }
        let shown = pty.shown()
        XCTAssertFalse(shown.contains("hunter2"), "the secret was echoed: \(shown.debugDescription)")
        XCTAssertTrue(shown.contains("\n"), "the newline is echoed")
        XCTAssertNotEqual(pty.localModes & tcflag_t(ECHO), 0, "echo is back after the entry")
        XCTAssertEqual(pty.localModes & tcflag_t(ECHONL), 0)
    }

    func testAHeldSignalEndsTheEntry() throws {
        let pty = try PseudoTerminal()
        defer { withExtendedLifetime(pty) {} }
        // Ignored as well as held, so that a failure here cannot end the test run.
        let previous = signal(SIGHUP, SIG_IGN)
        defer { signal(SIGHUP, previous) }
        try SecretEntry.with(input: FileDescriptor(pty.terminal)) { entry in
            raise(SIGHUP)
            XCTAssertThrowsError(try line(entry)) { error in
                XCTAssertEqual(error as? TerminalInputError, .interrupted(signal: SIGHUP))
            }
        }
        var pending = sigset_t()
        sigpending(&pending)
        XCTAssertEqual(sigismember(&pending, SIGHUP), 0, "the signal was taken, not left pending")
    }

    func testInputThatIsNoTerminalIsReadAsItIs() throws {
        let pipe = TestPipe("abc\r\ndef")
        defer { withExtendedLifetime(pipe) {} }
        pipe.endInput()
        try SecretEntry.with(input: FileDescriptor(pipe.readEnd)) { entry in
            XCTAssertFalse(entry.echoIsOff)
            XCTAssertEqual(try line(entry).0, "abc")
            XCTAssertEqual(try line(entry).0, "", "a CR ends a line, so CR LF leaves an empty one")
            let (last, end) = try line(entry)
            XCTAssertEqual(last, "def")
            XCTAssertEqual(end, .endOfInput)
        }
    }
}
