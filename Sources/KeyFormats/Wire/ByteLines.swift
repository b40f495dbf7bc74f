// The lines of a text file that may hold secrets (a PEM or .ppk private key), as ranges of
// the caller's buffer: lines end in LF, CRLF or CR, as in TextLines, but nothing is copied
// into a String or an Array. Lines that are known to be public (BEGIN/END, headers, PuTTY
// fields) are turned into text with `text(_:)`; base64 lines are handed on as views.

struct ByteLines {
    let bytes: UnsafeRawBufferPointer
    let ranges: [Range<Int>]

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        var ranges: [Range<Int>] = []
        var start = 0
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0a || b == 0x0d {
                ranges.append(start..<i)
                if b == 0x0d, i + 1 < bytes.count, bytes[i + 1] == 0x0a { i += 1 }
                start = i + 1
            }
            i += 1
        }
        if start < bytes.count { ranges.append(start..<bytes.count) }
        self.ranges = ranges
    }

    var count: Int { ranges.count }

    subscript(_ index: Int) -> Range<Int> { ranges[index] }

    /// `range` without leading and trailing spaces and tabs.
    func trimmed(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }

    /// The bytes of `range`, as a view.
    func view(_ range: Range<Int>) -> Slice<UnsafeRawBufferPointer> { bytes[range] }

    /// A public line as text (invalid UTF-8 becomes U+FFFD).
    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    func starts(_ range: Range<Int>, with prefix: String) -> Bool {
        range.count >= prefix.utf8.count && bytes[range.lowerBound..<range.lowerBound + prefix.utf8.count].elementsEqual(prefix.utf8)
    }

    func ends(_ range: Range<Int>, with suffix: String) -> Bool {
        range.count >= suffix.utf8.count && bytes[range.upperBound - suffix.utf8.count..<range.upperBound].elementsEqual(suffix.utf8)
    }

    func equals(_ range: Range<Int>, _ text: String) -> Bool { bytes[range].elementsEqual(text.utf8) }

    /// The offset of the first `byte` in `range`, if any.
    func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? { bytes[range].firstIndex(of: byte) }
}
