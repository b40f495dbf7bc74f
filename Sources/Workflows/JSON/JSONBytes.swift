// The one JSON writer: values rendered straight into bytes (two-space indentation) and the
// one rule for escaping a JSON string (`escaped`: `"`, `\`, C0 controls, DEL, C1 controls,
// U+2028/U+2029; everything else, characters outside the BMP included, as UTF-8).
// `JSONValue.rendered()` and `StreamedJSONObject` (beside it) go through it; outputs that
// can be large write with it directly: `list --json` with 10,000 hosts spends most of its time building
// Strings otherwise (benchmarks/README.md, "hosts").
#if canImport(Glibc)
import Glibc
#endif
import System

public struct JSONBytes {
    private var buffer: Buffer

    /// Plain memory with memcpy appends: `Array.append` per field costs more than the
    /// rendering itself when 10,000 hosts make 600,000 small appends.
    private final class Buffer {
        var base: UnsafeMutablePointer<UInt8>
        var count = 0
        var capacity: Int

        init(capacity: Int) {
            self.capacity = max(capacity, 64)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }

        @inline(__always)
        func append(_ p: UnsafeRawPointer, _ n: Int) {
            if count + n > capacity { grow(count + n) }
            (base + count).update(from: p.assumingMemoryBound(to: UInt8.self), count: n)
            count += n
        }

        @inline(__always)
        func append(_ b: UInt8) {
            if count == capacity { grow(count + 1) }
            base[count] = b
            count += 1
        }

        func grow(_ needed: Int) {
            var c = capacity * 2
            while c < needed { c *= 2 }
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
            bigger.update(from: base, count: count)
            base.deallocate()
            base = bigger
            capacity = c
        }
    }

    public init(capacity: Int = 4096) { buffer = Buffer(capacity: capacity) }

    /// What has been rendered (and not yet flushed).
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: buffer.base, count: buffer.count)) }

    /// One byte as it is (punctuation, a line break).
    public mutating func byte(_ b: UInt8) { buffer.append(b) }

    /// Text written as it is (a keyword, a number): never a string from outside.
    public mutating func text(_ s: String) { append(s) }

    private mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { buffer.append($0.baseAddress!, $0.count) }
    }

    public mutating func spaces(_ indent: Int) {
        for _ in 0..<(indent * 2) { buffer.append(0x20) }
    }

    /// RFC 8259 §7 string, escaping `"`, `\`, C0 controls, DEL, C1
    /// controls (UTF-8 C2 80–C2 9F) and U+2028/U+2029 (E2 80 A8/A9).
    public mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { escaped($0) }
    }

    /// A string given as UTF-8 bytes (e.g. straight from SQLite); `null` for nil. Bytes that
    /// are not valid UTF-8 are repaired (U+FFFD) exactly as `String(decoding:)` would.
    public mutating func string(utf8 u: UnsafeBufferPointer<UInt8>?) {
        guard let u else { append("null"); return }
        if u.allSatisfy({ $0 < 0x80 }) || String(validating: u, as: UTF8.self) != nil {
            escaped(u)
        } else {
            string(String(decoding: u, as: UTF8.self))
        }
    }

    /// Bytes written as they are (punctuation, field names, numbers).
    public mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { buffer.append($0.baseAddress!, $0.count) }
    }

    public mutating func int(_ n: Int) { append(String(n)) }

    private mutating func escaped(_ u: UnsafeBufferPointer<UInt8>) {
        buffer.append(UInt8(ascii: "\""))
        var i = 0
        var runStart = 0
        let n = u.count
        // Copies runs of bytes that need no escape in one go.
        func flushRun(_ end: Int) {
            if end > runStart { buffer.append(u.baseAddress! + runStart, end - runStart) }
        }
        while i < n {
            let b = u[i]
            if b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") && b != 0x7F && b != 0xC2 && b != 0xE2 {
                i += 1
                continue
            }
            var consumed = 1
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): flushRun(i); buffer.append(0x5C); buffer.append(b)
            case 0x0A: flushRun(i); buffer.append(0x5C); buffer.append(UInt8(ascii: "n"))
            case 0x0D: flushRun(i); buffer.append(0x5C); buffer.append(UInt8(ascii: "r"))
            case 0x09: flushRun(i); buffer.append(0x5C); buffer.append(UInt8(ascii: "t"))
            case 0x00..<0x20, 0x7F: flushRun(i); unicodeEscape(UInt32(b))
            case 0xC2 where i + 1 < n && u[i + 1] >= 0x80 && u[i + 1] <= 0x9F:
                flushRun(i)
                unicodeEscape(UInt32(u[i + 1]))
                consumed = 2
            case 0xE2 where i + 2 < n && u[i + 1] == 0x80 && (u[i + 2] == 0xA8 || u[i + 2] == 0xA9):
                flushRun(i)
                unicodeEscape(u[i + 2] == 0xA8 ? 0x2028 : 0x2029)
                consumed = 3
            default:
                // 0xC2 / 0xE2 starting a character that needs no escape.
                i += 1
                continue
            }
            i += consumed
            runStart = i
        }
        flushRun(n)
        buffer.append(UInt8(ascii: "\""))
    }

    /// Writes what has been rendered so far to `fd` once it passes `threshold` bytes, and
    /// starts again with the same buffer (large outputs need no large buffer).
    public mutating func flush(to fd: Int32, threshold: Int = 1 << 16) {
        guard buffer.count >= threshold else { return }
        writeAll(to: fd)
    }

    /// Writes everything rendered and not yet written to `fd`.
    public mutating func writeAll(to fd: Int32) {
        JSONBytes.write(UnsafeRawBufferPointer(start: buffer.base, count: buffer.count), to: fd)
        buffer.count = 0
    }

    private mutating func unicodeEscape(_ v: UInt32) {
        let hex = Array("0123456789abcdef".utf8)
        buffer.append(0x5C)
        buffer.append(UInt8(ascii: "u"))
        for shift in stride(from: 12, through: 0, by: -4) { buffer.append(hex[Int((v >> UInt32(shift)) & 0xF)]) }
    }

    /// Writes all of `bytes` to `fd`, retrying short writes; a closed pipe ends quietly.
    public static func write(_ buf: UnsafeRawBufferPointer, to fd: Int32) {
        try? FileDescriptor(fd).writeAll(buf)
    }
}
