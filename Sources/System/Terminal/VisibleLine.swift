// One line typed with echo on (an answer to a question, a name), read a byte at a time so
// nothing beyond the line is consumed: it ends at `\n` or at the end of input, and a `\r`
// (a terminal in raw mode, a file with CR LF) is dropped wherever it is.
public enum VisibleLine {
    public enum Failure: Error, Equatable, Sendable {
        /// The input ended before any byte of the line.
        case endOfInput
        /// The line grew past the limit.
        case tooLong
        case unreadable(Errno)
    }

    /// The line's bytes, without its newline and any `\r`.
    public static func read(from input: FileDescriptor = .standardInput, limit: Int) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n: Int
            do { n = try withUnsafeMutableBytes(of: &byte) { (buffer) throws(Errno) -> Int in try input.read(into: buffer) } } catch { throw .unreadable(error) }
            if n == 0 {
                if bytes.isEmpty { throw .endOfInput }
                return bytes
            }
            if byte == UInt8(ascii: "\n") { return bytes }
            if byte != UInt8(ascii: "\r") { bytes.append(byte) }
            if bytes.count > limit { throw .tooLong }
        }
    }
}
