// A pseudo-terminal for the tests of System's terminal types (openpty): the program's side
// (`terminal`, what the code under test is given) and the user's side (`user`, where the
// tests type and read what the terminal echoes), in plain Glibc calls.
#if canImport(Glibc)
import Glibc
#endif
import XCTest

final class PseudoTerminal {
    private(set) var user: Int32
    let terminal: Int32

    init(columns: UInt16 = 80, rows: UInt16 = 24) throws {
        var user: Int32 = -1, terminal: Int32 = -1
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&user, &terminal, nil, nil, &size) == 0 else { throw XCTSkip("no pseudo-terminals") }
        self.user = user
        self.terminal = terminal
    }

    deinit {
        if user >= 0 { close(user) }
        close(terminal)
    }

    /// The user's side closes: the terminal hangs up.
    func hangUp() {
        close(user)
        user = -1
    }

    /// The terminal's local modes now (ECHO, ICANON, ...).
    var localModes: tcflag_t {
        var settings = termios()
        precondition(tcgetattr(terminal, &settings) == 0)
        return settings.c_lflag
    }

    func type(_ text: String) {
        let bytes = Array(text.utf8)
        precondition(bytes.withUnsafeBytes { write(user, $0.baseAddress, $0.count) } == bytes.count)
    }

    /// What the terminal has shown the user so far (its echo), waiting at most 0.3 s for the first byte.
    func shown() -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var fds = [pollfd(fd: user, events: Int16(POLLIN), revents: 0)]
        var wait: Int32 = 300
        while poll(&fds, 1, wait) > 0 {
            let n = read(user, &buffer, buffer.count)
            guard n > 0 else { break }
            out += buffer[0..<n]
            wait = 50
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A pipe's two ends, closed when the test ends.
final class TestPipe {
    let readEnd: Int32
    var writeEnd: Int32

    init(_ text: String = "") {
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0)
        readEnd = fds[0]
        writeEnd = fds[1]
        let bytes = Array(text.utf8)
        precondition(bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) } == bytes.count)
    }

    /// No more input: a reader then sees the end.
    func endInput() {
        close(writeEnd)
        writeEnd = -1
    }

    deinit {
        close(readEnd)
        if writeEnd >= 0 { close(writeEnd) }
    }
}
