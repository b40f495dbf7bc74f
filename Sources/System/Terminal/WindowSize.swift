// The size of a terminal's window in character cells, as the terminal reports it
// (ioctl TIOCGWINSZ). A descriptor that is not a terminal has none.
#if canImport(Glibc)
import Glibc
#endif

public struct WindowSize: Sendable, Equatable {
    public let columns: Int
    public let rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// What the terminal on `descriptor` reports (either may be 0: a terminal that does not
    /// say); nil when `descriptor` is not a terminal.
    public static func of(_ descriptor: FileDescriptor) -> WindowSize? {
        var size = winsize()
        guard ioctl(descriptor.rawValue, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
        return WindowSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }
}
