// The text armour of an openssh-key-v1 file (sshkey.c private2_uudecode; docs/formats.md,
// "openssh-key-v1"): BEGIN line, base64 body, END line. Reading is tolerant (leading blank
// lines, CRLF, no final newline, any line length); writing produces exactly what OpenSSH's
// strict reader wants: 70-character lines and a final newline. The decoded blob may hold an
// unencrypted private section, so it is decoded straight into secure memory, and the text we
// write is secure memory too.
import SecureMemory

enum OpenSSHArmour {
    static let begin = "-----BEGIN OPENSSH PRIVATE KEY-----"
    static let end = "-----END OPENSSH PRIVATE KEY-----"
    static let lineLength = 70

    static func decode(_ text: [UInt8]) throws -> SecretBytes { try text.withUnsafeBytes { try decode($0) } }

    /// The binary blob inside the armour. `text` is the file as the caller holds it (in
    /// secure memory when it comes from `PrivateKeyFile.parse(_: SecretBytes, …)`).
    static func decode(_ text: UnsafeRawBufferPointer) throws -> SecretBytes {
        var i = 0
        while i < text.count, [0x20, 0x09, 0x0a, 0x0d].contains(text[i]) { i += 1 }
        let beginBytes = Array(begin.utf8)
        guard text.count - i >= beginBytes.count, text[i..<i + beginBytes.count].elementsEqual(beginBytes) else {
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
            if trimmed - lineStart == endBytes.count, text[lineStart..<trimmed].elementsEqual(endBytes) {
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

    /// Base64 into secure memory (SecretBase64, lenient: line breaks, spaces and tabs are
    /// skipped, anything else outside the alphabet is an error).
    private static func decodeBase64(_ body: Slice<UnsafeRawBufferPointer>) throws -> SecretBytes {
        let out: SecretBytes
        do {
            out = try SecretBase64.decode([body], strict: false)
        } catch .dataAfterPadding {
            throw KeyFormatError.invalid("the key data has base64 after its '=' padding")
        } catch .notBase64 {
            throw KeyFormatError.invalid("the key data contains a character that is not base64")
        } catch .incomplete {
            throw KeyFormatError.invalid("the key data is not complete base64 (the file is truncated or damaged)")
        }
        guard out.count > 0 else { throw KeyFormatError.invalid("the key data is empty") }
        return out
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
