// The text armour of an openssh-key-v1 file (ssh-formats.md §1.1): BEGIN line, base64 body,
// END line. Reading is tolerant (leading blank lines, CRLF, no final newline, any line
// length); writing produces exactly what OpenSSH's strict reader wants: 70-character lines
// and a final newline. The decoded blob may hold an unencrypted private section, so it is
// decoded straight into secure memory, and the text we write is secure memory too.
import SecureMemory

enum OpenSSHArmour {
    static let begin = "-----BEGIN OPENSSH PRIVATE KEY-----"
    static let end = "-----END OPENSSH PRIVATE KEY-----"
    static let lineLength = 70

    /// The binary blob inside the armour.
    static func decode(_ text: [UInt8]) throws -> SecretBytes {
        var i = 0
        while i < text.count, [0x20, 0x09, 0x0a, 0x0d].contains(text[i]) { i += 1 }
        let beginBytes = Array(begin.utf8)
        guard text.count - i >= beginBytes.count, Array(text[i..<i + beginBytes.count]) == beginBytes else {
            throw KeyFormatError.invalid("not an OpenSSH private key: the first line is not '\(begin)'")
        }
        i += beginBytes.count
        // Rest of the BEGIN line must be empty.
        while i < text.count, text[i] == 0x0d || text[i] == 0x20 || text[i] == 0x09 { i += 1 }
        guard i < text.count, text[i] == 0x0a else {
            throw KeyFormatError.invalid("the BEGIN line is not followed by a line break")
        }
        i += 1

        // Find the END line; everything between is the body.
        let endBytes = Array(end.utf8)
        var bodyEnd: Int? = nil
        var lineStart = i
        while lineStart < text.count {
            var lineEnd = lineStart
            while lineEnd < text.count, text[lineEnd] != 0x0a { lineEnd += 1 }
            var trimmed = lineEnd
            while trimmed > lineStart, [0x0d, 0x20, 0x09].contains(text[trimmed - 1]) { trimmed -= 1 }
            if trimmed - lineStart == endBytes.count, Array(text[lineStart..<trimmed]) == endBytes {
                bodyEnd = lineStart
                break
            }
            lineStart = lineEnd + 1
        }
        guard let bodyEnd else {
            throw KeyFormatError.invalid("the line '\(end)' is missing (the file is truncated)")
        }
        return try decodeBase64(text[i..<bodyEnd])
    }

    /// Base64 (RFC 4648, `+/`, `=` padding) into secure memory; line breaks, spaces and tabs
    /// are skipped, anything else outside the alphabet is an error.
    private static func decodeBase64(_ body: ArraySlice<UInt8>) throws -> SecretBytes {
        let out = SecretBytes(count: body.count / 4 * 3 + 3)
        var length = 0
        var acc: UInt32 = 0
        var bits = 0
        var padding = 0
        var symbols = 0
        try out.withUnsafeMutableBytes { o in
            for c in body {
                if c == 0x0a || c == 0x0d || c == 0x20 || c == 0x09 { continue }
                if c == UInt8(ascii: "=") { padding += 1; symbols += 1; continue }
                guard padding == 0 else { throw KeyFormatError.invalid("the key data has base64 after its '=' padding") }
                guard let v = value(of: c) else {
                    throw KeyFormatError.invalid("the key data contains a character that is not base64")
                }
                acc = (acc << 6 | v) & 0xffffff
                bits += 6
                symbols += 1
                if bits >= 8 {
                    bits -= 8
                    o[length] = UInt8(truncatingIfNeeded: acc >> UInt32(bits))
                    length += 1
                }
            }
            acc = 0
        }
        guard padding <= 2, symbols % 4 != 1, padding == 0 || symbols % 4 == 0 else {
            throw KeyFormatError.invalid("the key data is not complete base64 (the file is truncated or damaged)")
        }
        guard length > 0 else { throw KeyFormatError.invalid("the key data is empty") }
        return out.slice(0..<length)
    }

    @inline(__always)
    private static func value(of c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(c - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(c - UInt8(ascii: "a") + 26)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0") + 52)
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }

    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The armoured text of `blob`: BEGIN line, base64 in 70-character lines, END line,
    /// each ending in `\n` (what OpenSSH's `private2_uudecode` accepts).
    static func encode(_ blob: SecretBytes) -> SecretBytes {
        let b64Length = (blob.count + 2) / 3 * 4
        let lines = (b64Length + lineLength - 1) / lineLength
        let total = begin.utf8.count + 1 + b64Length + lines + end.utf8.count + 1
        let out = SecretBytes(count: total)
        out.withUnsafeMutableBytes { o in
            var n = 0
            func put(_ b: UInt8) { o[n] = b; n += 1 }
            for b in begin.utf8 { put(b) }
            put(0x0a)
            var column = 0
            func putSymbol(_ b: UInt8) {
                put(b)
                column += 1
                if column == lineLength { put(0x0a); column = 0 }
            }
            blob.withUnsafeBytes { input in
                var i = 0
                while i < input.count {
                    let rest = input.count - i
                    let b0 = UInt32(input[i])
                    let b1 = rest > 1 ? UInt32(input[i + 1]) : 0
                    let b2 = rest > 2 ? UInt32(input[i + 2]) : 0
                    let v = b0 << 16 | b1 << 8 | b2
                    putSymbol(alphabet[Int(v >> 18)])
                    putSymbol(alphabet[Int((v >> 12) & 63)])
                    putSymbol(rest > 1 ? alphabet[Int((v >> 6) & 63)] : UInt8(ascii: "="))
                    putSymbol(rest > 2 ? alphabet[Int(v & 63)] : UInt8(ascii: "="))
                    i += 3
                }
            }
            if column != 0 { put(0x0a) }
            for b in end.utf8 { put(b) }
            put(0x0a)
            precondition(n == total)
        }
        return out
    }
}
