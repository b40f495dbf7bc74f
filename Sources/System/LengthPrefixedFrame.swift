// `uint32 length ‖ body` framing (big-endian length, as the ssh-agent protocol frames its
// messages: draft-miller-ssh-agent, section 3), read and written whole.
#if canImport(Glibc)
import Glibc
#endif

public enum LengthPrefixedFrame {
    /// One frame's body. nil at end of stream, on a read error, or when the length is
    /// outside `minLength...maxLength` (the body is then not read: the stream is to be closed).
    public static func read(from fd: Int32, minLength: Int = 1, maxLength: Int) -> [UInt8]? {
        var header = [UInt8](repeating: 0, count: 4)
        guard FileDescriptor(fd).readExactly(&header) else { return nil }
        let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        guard length >= minLength, length <= maxLength else { return nil }
        var body = [UInt8](repeating: 0, count: length)
        guard FileDescriptor(fd).readExactly(&body) else { return nil }
        return body
    }

    /// One frame's body, the whole of it within `timeoutMilliseconds` (a peer that sends
    /// its first byte and then stalls is not waited for longer). nil as `read`, or when the
    /// time ran out.
    public static func read(from fd: Int32, minLength: Int = 1, maxLength: Int, timeoutMilliseconds: Int32) -> [UInt8]? {
        let deadline = Monotonic.milliseconds() + Int64(max(0, timeoutMilliseconds))
        var header = [UInt8](repeating: 0, count: 4)
        guard readExactly(fd, &header, deadline: deadline) else { return nil }
        let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        guard length >= minLength, length <= maxLength else { return nil }
        var body = [UInt8](repeating: 0, count: length)
        guard readExactly(fd, &body, deadline: deadline) else { return nil }
        return body
    }

    /// Fills `buffer` whole, waiting (poll) for each part until `deadline`
    /// (Monotonic.milliseconds()); false on end of file, an error or the deadline.
    private static func readExactly(_ fd: Int32, _ buffer: inout [UInt8], deadline: Int64) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let left = Int32(clamping: max(0, deadline - Monotonic.milliseconds()))
            guard (try? Poll.wait(fd, events: Int16(POLLIN), timeoutMilliseconds: left)) == true else { return false }
            let n = buffer.withUnsafeMutableBytes { bytes in
                try? FileDescriptor(fd).read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[offset...]))
            }
            guard let n, n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// The frame of `body`: its length, then it.
    public static func encode(_ body: [UInt8]) -> [UInt8] {
        let n = UInt32(body.count)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)] + body
    }

    /// Sends one frame (send(2) with MSG_NOSIGNAL); false when the peer went away.
    public static func write(_ body: [UInt8], to fd: Int32) -> Bool {
        var frame = encode(body)
        defer { for i in frame.indices { frame[i] = 0 } }
        return frame.withUnsafeBytes { (try? FileDescriptor(fd).sendAll($0)) != nil }
    }
}
