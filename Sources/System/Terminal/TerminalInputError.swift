// Why a read from a terminal (SecretEntry, RawMode) did not bring input.
public enum TerminalInputError: Error, Equatable, Sendable {
    /// A held signal (HeldSignals) came while waiting; the terminal is put back before the
    /// caller ends as the signal asks.
    case interrupted(signal: Int32)
    /// The terminal is gone: end of file, a hang-up, or poll(2) failed on it.
    case closed
    /// read(2) failed.
    case unreadable(Errno)
}
