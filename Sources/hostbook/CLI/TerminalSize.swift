// How wide the output may be: the terminal's width when stdout is one (TIOCGWINSZ), else
// $COLUMNS when set to a positive number, else no limit (a pipe or a file gets every
// column whole).
#if canImport(Glibc)
import Glibc
#endif

enum TerminalSize {
    static func columns(environment: [String: String], fd: Int32 = STDOUT_FILENO) -> Int? {
        var size = winsize()
        if isatty(fd) == 1, ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let text = environment["COLUMNS"], let n = Int(text), n > 0 { return n }
        return nil
    }
}
