// Line handling shared by the text formats (PEM, RFC 4716, .ppk, .pub): lines end in LF,
// CRLF or CR, and fields are trimmed of spaces and tabs.

enum TextLines {
    /// Splits on LF, CRLF or CR.
    static func split(_ bytes: [UInt8]) -> [Substring] {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines: [Substring] = []
        var start = text.startIndex
        var i = text.startIndex
        // `Character` treats "\r\n" as one character, so one comparison covers all three ends.
        while i < text.endIndex {
            let c = text[i]
            if c == "\n" || c == "\r" || c == "\r\n" {
                lines.append(text[start..<i])
                start = text.index(after: i)
            }
            i = text.index(after: i)
        }
        if start < text.endIndex { lines.append(text[start...]) }
        return lines
    }

    static func trimmed(_ s: Substring) -> String {
        String(s.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}

extension Substring {
    var trimmingSpaces: String { TextLines.trimmed(self) }
}
