// A line typed with echo off, as readpassphrase(3) reads one: while the entry lasts the
// terminal echoes nothing but the newline (ECHONL), input typed before it began is flushed
// (TCSAFLUSH), and the signals that end the program are held (HeldSignals), so the terminal
// gets its echo back before the program ends. Bytes are read one at a time, so nothing
// beyond the line is consumed, and handed straight to the caller (who keeps them in secure
// memory). An input that is not a terminal is read as it is, with nothing changed.
#if canImport(Glibc)
import Glibc
#endif

public final class SecretEntry {
    /// How a line ended.
    public enum LineEnd: Equatable, Sendable {
        case newline
        case endOfInput
    }

    public let input: FileDescriptor
    private var saved: termios
    private let held: HeldSignals?
    private var restored = false

    /// Whether `input` is a terminal whose echo is off (else nothing was changed).
    public var echoIsOff: Bool { held != nil }

    /// Runs `body` with echo off on `input` (when it is a terminal) and puts the terminal and
    /// the signal mask back however `body` ends.
    public static func with<T>(input: FileDescriptor = .standardInput, _ body: (SecretEntry) throws -> T) rethrows -> T {
        let entry = SecretEntry(input: input)
        defer { entry.restore() }
        return try body(entry)
    }

    private init(input: FileDescriptor) {
        self.input = input
        var settings = termios()
        let isTerminal = tcgetattr(input.rawValue, &settings) == 0
        saved = settings
        // Signals first, then echo off: a signal already pending finds the terminal as it was.
        held = isTerminal ? HeldSignals() : nil
        guard isTerminal else { return }
        var noEcho = settings
        noEcho.c_lflag &= ~tcflag_t(ECHO)
        noEcho.c_lflag |= tcflag_t(ECHONL)
        _ = tcsetattr(input.rawValue, TCSAFLUSH, &noEcho)
    }

    deinit { restore() }

    /// The terminal's settings as they were, then the signal mask; safe to call more than once.
    public func restore() {
        guard !restored else { return }
        restored = true
        if held != nil { _ = tcsetattr(input.rawValue, TCSAFLUSH, &saved) }
        held?.release()
    }

    /// Reads one line, to `\n` or `\r` (neither handed on), giving each byte to `take` (which
    /// may throw to stop, e.g. when the line is too long). On a terminal each wait for a byte
    /// checks ten times a second whether a held signal came, and throws
    /// `TerminalInputError.interrupted` if so; a failed read throws `.unreadable`.
    public func readLine(_ take: (UInt8) throws -> Void) throws -> LineEnd {
        var byte: UInt8 = 0
        defer { byte = 0 }
        while true {
            if let held {
                // A poll error other than a signal goes on to the read, which reports it.
                let ready = (try? Poll.wait(input.rawValue, events: Int16(POLLIN), timeoutMilliseconds: 100)) ?? true
                if let signal = held.takePending() { throw TerminalInputError.interrupted(signal: signal) }
                if !ready { continue }
            }
            let n = Glibc.read(input.rawValue, &byte, 1)
            if n < 0 {
                if errno == EINTR { continue }
                throw TerminalInputError.unreadable(Errno.current)
            }
            if n == 0 { return .endOfInput }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { return .newline }
            try take(byte)
        }
    }
}
