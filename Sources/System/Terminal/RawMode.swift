// A terminal in raw mode (termios) for a full-screen program: no echo, no line editing, no
// signals from keys (Ctrl-C arrives as a byte), no flow control or CR translation on input,
// no output processing (the program ends its lines in an explicit CR LF), 8-bit characters,
// a read returning as soon as one byte came. The signals that end the program are held
// (HeldSignals) while it lasts; a wait for input checks ten times a second whether one came
// and throws it, so the caller puts the terminal back first. `restore` (also on deinit)
// puts back the saved settings and the signal mask.
#if canImport(Glibc)
import Glibc
#endif

public final class RawMode {
    /// What a wait for input brought.
    public enum Event: Equatable, Sendable {
        case bytes([UInt8])
        /// Nothing came in the time given.
        case timeout
    }

    public let input: FileDescriptor
    private var saved: termios
    private let held: HeldSignals
    private var restored = false

    /// Puts `input` in raw mode; throws when it is not a terminal or refuses the settings
    /// (then nothing is left changed).
    public init(_ input: FileDescriptor) throws(Errno) {
        self.input = input
        var settings = termios()
        guard tcgetattr(input.rawValue, &settings) == 0 else { throw Errno.current }
        saved = settings
        // Signals first (the terminal is still as it was if one is already pending), then raw mode.
        held = HeldSignals()
        var raw = settings
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input.rawValue, TCSAFLUSH, &raw) == 0 else {
            let reason = Errno.current
            restored = true
            held.release()
            throw reason
        }
    }

    deinit { restore() }

    /// Back to the saved settings, then the signal mask; safe to call more than once. A
    /// signal that came meanwhile was taken by `next`; any other is delivered now.
    public func restore() {
        guard !restored else { return }
        restored = true
        _ = tcsetattr(input.rawValue, TCSAFLUSH, &saved)
        held.release()
    }

    /// Waits up to `milliseconds` for input and returns what one read brought (at most 256
    /// bytes). A held signal is thrown as `.interrupted`; the end of the terminal (end of
    /// file, a hang-up) as `.closed`.
    public func next(milliseconds: Int32) throws(TerminalInputError) -> Event {
        // At most 100 ms at a time, so a held signal is noticed promptly.
        var left = milliseconds
        while true {
            if let signal = held.takePending() { throw .interrupted(signal: signal) }
            let slice = min(left, 100)
            let ready: Bool
            do { ready = try Poll.wait(input.rawValue, events: Int16(POLLIN), timeoutMilliseconds: slice) } catch { throw .closed }
            if ready { break }
            left -= slice
            if left <= 0 {
                if let signal = held.takePending() { throw .interrupted(signal: signal) }
                return .timeout
            }
        }
        if let signal = held.takePending() { throw .interrupted(signal: signal) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = (try? buffer.withUnsafeMutableBytes { try input.read(into: $0) }) ?? 0
        if n > 0 { return .bytes(Array(buffer[0..<n])) }
        throw .closed   // 0: end of file; EIO: the terminal hung up
    }
}
