// How wide the output may be: the terminal's width when stdout is one (System's
// WindowSize), else $COLUMNS when set to a positive number, else no limit (a pipe or a file
// gets every column whole).
import System

public enum TerminalSize {
    public static func columns(environment: [String: String], fd: Int32 = FileDescriptor.standardOutput.rawValue) -> Int? {
        if FileDescriptor(fd).isTerminal, let size = WindowSize.of(FileDescriptor(fd)), size.columns > 0 { return size.columns }
        if let text = environment["COLUMNS"], let n = Int(text), n > 0 { return n }
        return nil
    }
}
