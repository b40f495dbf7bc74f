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
