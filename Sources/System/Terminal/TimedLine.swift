// One line typed on a terminal before a deadline (an answer that must come in time, such as
// an agent's approval asked while ssh waits): each byte waited for with poll(2) until the
// deadline, read a byte at a time so nothing beyond the line is consumed. The line ends at
// `\n` or `\r` (a terminal in raw mode sends `\r` for Enter); a line that reaches the limit
// ends there, the rest left unread.
#if canImport(Glibc)
import Glibc
#endif

public enum TimedLine {
    public enum Failure: Error, Equatable, Sendable {
        /// The deadline passed before the line ended.
        case timedOut
        /// The input ended (or the terminal hung up) before the line did.
        case endOfInput
        /// poll(2) or read(2) failed.
        case unreadable(Errno)
    }

    /// The line's bytes, without its `\n` or `\r`, read by `deadline` (Monotonic.milliseconds()).
    public static func read(from input: FileDescriptor, limit: Int, deadline: Int64) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < limit {
            let left = deadline - Monotonic.milliseconds()
            guard left > 0 else { throw .timedOut }
            let ready: Bool
            do { ready = try Poll.wait(input.rawValue, events: Int16(POLLIN), timeoutMilliseconds: Int32(clamping: left)) } catch { throw .unreadable(error) }
            guard ready else { throw .timedOut }
            let n: Int
            do { n = try withUnsafeMutableBytes(of: &byte) { (buffer) throws(Errno) -> Int in try input.read(into: buffer) } } catch { throw .unreadable(error) }
            guard n == 1 else { throw .endOfInput }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
            bytes.append(byte)
        }
        return bytes
    }
}
