// The terminal in raw mode for a full-screen prompt (the host picker), with termios: no
// echo, no line editing, no signals from keys (Ctrl-C arrives as a byte), no flow control
// or CR translation on input, no output processing (every drawn line ends in an explicit
// CR LF). The alternate screen holds what is drawn, with the cursor hidden while drawing.
//
// Everything is put back on every way out — `with` restores in a `defer`, so a key that
// leaves, an error while drawing, the end of the terminal and a signal all pass through
// it: the saved termios settings, the main screen, a visible cursor, plain attributes, and
// the signal mask. The signals that end hostbook (SIGINT, SIGQUIT, SIGHUP, SIGTERM; see
// Terminal.interruptingSignals) are held back while the terminal is raw; a wait for input
// checks ten times a second whether one came, and if so it is thrown as
// TerminalInterrupted, so hostbook restores the terminal first and then exits 128 + the
// signal, as a shell reports it.
#if canImport(Glibc)
import Glibc
#endif
import System

final class RawTerminal {
    /// What a wait for input brought.
    enum Event {
        case bytes([UInt8])
        /// Nothing came in the time given.
        case timeout
    }

    let input: Int32
    let output: Int32
    private var saved = termios()
    private var previousMask = sigset_t()
    private var restored = false

    /// Runs `body` with the terminal raw and the alternate screen up, and restores both
    /// whatever way `body` ends.
    static func with<T>(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, _ body: (RawTerminal) throws -> T) throws -> T {
        let terminal = try RawTerminal(input: input, output: output)
        defer { terminal.restore() }
        return try body(terminal)
    }

    private init(input: Int32, output: Int32) throws {
        self.input = input
        self.output = output
        guard tcgetattr(input, &saved) == 0 else {
            throw CLIError.failure("cannot use the terminal: \(String(cString: strerror(errno)))")
        }
        // Signals first (the terminal is still cooked if one is already pending), then raw mode.
        var held = sigset_t()
        sigemptyset(&held)
        for s in Terminal.interruptingSignals { sigaddset(&held, s) }
        pthread_sigmask(SIG_BLOCK, &held, &previousMask)
        var raw = saved
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_oflag &= ~tcflag_t(OPOST)   // lines end in an explicit CR LF
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
            let reason = String(cString: strerror(errno))
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            throw CLIError.failure("cannot use the terminal: \(reason)")
        }
        // The alternate screen, from its top-left corner.
        _ = Output.write("\u{1B}[?1049h\u{1B}[H\u{1B}[2J", to: output)
    }

    deinit { restore() }

    /// Back to how the terminal was; safe to call more than once.
    func restore() {
        guard !restored else { return }
        restored = true
        _ = Output.write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l", to: output)
        _ = tcsetattr(input, TCSAFLUSH, &saved)
        // A signal that came meanwhile was taken by `next`; any other is delivered now.
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }

    /// The terminal's size, columns by rows (80×24 when it does not say).
    var size: (columns: Int, rows: Int) {
        var ws = winsize()
        if ioctl(output, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 {
            return (Int(ws.ws_col), Int(ws.ws_row))
        }
        return (80, 24)
    }

    /// Writes `text` whole; a terminal that cannot be written to is an error.
    func write(_ text: TerminalText) throws {
        guard Output.write(text, to: output) else {
            throw CLIError.failure("cannot draw on the terminal: \(String(cString: strerror(errno)))")
        }
    }

    /// Waits up to `milliseconds` for input and returns what could be read. A signal that
    /// ends hostbook is thrown as TerminalInterrupted; the end of the terminal (end of
    /// file, a hang-up) is an error.
    func next(milliseconds: Int32) throws -> Event {
        // At most 100 ms at a time, so a held-back signal is noticed promptly.
        var left = milliseconds
        while true {
            if let signal = Terminal.takePendingSignal() { throw TerminalInterrupted(signal: signal) }
            let slice = min(left, 100)
            let ready: Bool
            do { ready = try Poll.wait(input, events: Int16(POLLIN), timeoutMilliseconds: slice) } catch { throw Self.ended() }
            if ready { break }
            left -= slice
            if left <= 0 {
                if let signal = Terminal.takePendingSignal() { throw TerminalInterrupted(signal: signal) }
                return .timeout
            }
        }
        if let signal = Terminal.takePendingSignal() { throw TerminalInterrupted(signal: signal) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = (try? buffer.withUnsafeMutableBytes { try FileDescriptor(input).read(into: $0) }) ?? 0
        if n > 0 { return .bytes(Array(buffer[0..<n])) }
        throw Self.ended()   // 0: end of file; EIO: the terminal hung up
    }

    private static func ended() -> CLIError {
        CLIError.failure("the terminal was closed")
    }
}
