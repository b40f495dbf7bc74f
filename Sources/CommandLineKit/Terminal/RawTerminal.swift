// The terminal for a full-screen prompt (the host picker): raw mode (System's RawMode: no
// echo, no line editing, Ctrl-C as a byte, the signals that end the program held) and the
// alternate screen holding what is drawn, with the cursor hidden while drawing.
//
// Everything is put back on every way out — `with` restores in a `defer`, so a key that
// leaves, an error while drawing, the end of the terminal and a signal all pass through
// it: the main screen, a visible cursor, plain attributes, then the terminal's settings and
// the signal mask. A signal that ends the program is thrown as TerminalInterrupted, so the
// program restores the terminal first and then exits 128 + the signal, as a shell reports it.
import System

public final class RawTerminal {
    public let input: Int32
    public let output: Int32
    private let mode: RawMode
    private var restored = false

    /// Runs `body` with the terminal raw and the alternate screen up, and restores both
    /// whatever way `body` ends.
    public static func with<T>(input: Int32 = FileDescriptor.standardInput.rawValue, output: Int32 = FileDescriptor.standardOutput.rawValue,
                        _ body: (RawTerminal) throws -> T) throws -> T {
        let terminal = try RawTerminal(input: input, output: output)
        defer { terminal.restore() }
        return try body(terminal)
    }

    private init(input: Int32, output: Int32) throws {
        self.input = input
        self.output = output
        do { mode = try RawMode(FileDescriptor(input)) } catch {
            throw TerminalFailure.unusable(reason: "\(error)")
        }
        // The alternate screen, from its top-left corner.
        _ = Output.write("\u{1B}[?1049h\u{1B}[H\u{1B}[2J", to: output)
    }

    deinit { restore() }

    /// Back to how the terminal was; safe to call more than once.
    public func restore() {
        guard !restored else { return }
        restored = true
        _ = Output.write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l", to: output)
        mode.restore()
    }

    /// The terminal's size, columns by rows (80×24 when it does not say).
    public var size: (columns: Int, rows: Int) {
        if let size = WindowSize.of(FileDescriptor(output)), size.columns > 0, size.rows > 0 { return (size.columns, size.rows) }
        return (80, 24)
    }

    /// Writes `text` whole; a terminal that cannot be written to is an error.
    public func write(_ text: TerminalText) throws {
        guard Output.write(text, to: output) else {
            throw TerminalFailure.cannotDraw(reason: "\(Errno.current)")
        }
    }

    /// Waits up to `milliseconds` for input and returns what could be read. A signal that
    /// ends the program is thrown as TerminalInterrupted; the end of the terminal (end of
    /// file, a hang-up) is an error.
    public func next(milliseconds: Int32) throws -> RawMode.Event {
        do {
            return try mode.next(milliseconds: milliseconds)
        } catch .interrupted(let signal) {
            throw TerminalInterrupted(signal: signal)
        } catch {
            throw TerminalFailure.closed
        }
    }
}
