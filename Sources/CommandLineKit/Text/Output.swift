// Writing to stdout/stderr: all of the text, whatever the pipe takes at a time.
import System

public enum Output {
    /// Writes all of `text` to `fd`, retrying short writes. A closed pipe ends quietly;
    /// the result says whether everything was written (errno tells why not). The text is
    /// TerminalText: what came from outside was escaped when it was put into it.
    @discardableResult
    public static func write(_ text: TerminalText, to fd: Int32) -> Bool {
        (try? FileDescriptor(fd).writeAll(Array(text.text.utf8))) != nil
    }

    /// Writes bytes the program rendered itself from escaped text (Table.write streams a large
    /// table in pieces through here); the same rules as `write`.
    @discardableResult
    public static func write(bytes: [UInt8], to fd: Int32) -> Bool {
        (try? FileDescriptor(fd).writeAll(bytes)) != nil
    }

    /// `write(_:to:)` on an open descriptor (FileDescriptor.standardOutput, a terminal).
    @discardableResult
    public static func write(_ text: TerminalText, to fd: FileDescriptor) -> Bool {
        write(text, to: fd.rawValue)
    }
}
