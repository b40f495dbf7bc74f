// Standard base64 (RFC 4648 §4, alphabet `+/`, `=` padding) as used by every SSH text format.

public enum Base64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static let decodeTable: [Int8] = {
        var t = [Int8](repeating: -1, count: 256)
        for (i, c) in alphabet.enumerated() { t[Int(c)] = Int8(i) }
        return t
    }()

    /// Encodes with `=` padding. `padded: false` drops it (SSH SHA256 fingerprints, sshkey.c
    /// fingerprint_b64).
    public static func encode<C: Collection>(_ data: C, padded: Bool = true) -> String where C.Element == UInt8 {
        let input = Array(data)
        var out = [UInt8]()
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= input.count {
            let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
            out.append(alphabet[Int(n >> 18)]); out.append(alphabet[Int((n >> 12) & 63)])
            out.append(alphabet[Int((n >> 6) & 63)]); out.append(alphabet[Int(n & 63)])
            i += 3
        }
        let rest = input.count - i
        if rest == 1 {
            let n = UInt32(input[i]) << 16
            out.append(alphabet[Int(n >> 18)]); out.append(alphabet[Int((n >> 12) & 63)])
            if padded { out.append(UInt8(ascii: "=")); out.append(UInt8(ascii: "=")) }
        } else if rest == 2 {
            let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8
            out.append(alphabet[Int(n >> 18)]); out.append(alphabet[Int((n >> 12) & 63)])
            out.append(alphabet[Int((n >> 6) & 63)])
            if padded { out.append(UInt8(ascii: "=")) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes strictly: only the alphabet, padding only at the end and only as much as
    /// needed; unpadded input is accepted when `requirePadding` is false. Returns nil on error.
    public static func decode<C: Collection>(_ text: C, requirePadding: Bool = false) -> [UInt8]? where C.Element == UInt8 {
        var out = [UInt8]()
        out.reserveCapacity(text.count / 4 * 3)
        var acc: UInt32 = 0
        var bits = 0
        var padding = 0
        var count = 0
        for c in text {
            if c == UInt8(ascii: "=") {
                padding += 1
                count += 1
                continue
            }
            if padding > 0 { return nil } // data after padding
            let v = decodeTable[Int(c)]
            if v < 0 { return nil }
            acc = (acc << 6) | UInt32(v)
            bits += 6
            count += 1
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((acc >> UInt32(bits)) & 0xff))
            }
        }
        if padding > 2 { return nil }
        if requirePadding || padding > 0 {
            guard count % 4 == 0 else { return nil }
        } else if count % 4 == 1 {
            return nil
        }
        // Leftover bits must be zero (canonical encoding) and padding must match them.
        if bits > 0 && (acc & ((1 << UInt32(bits)) - 1)) != 0 { return nil }
        if padding > 0 {
            let dataChars = count - padding
            let expectedPadding = (4 - dataChars % 4) % 4
            if expectedPadding != padding { return nil }
        }
        return out
    }

    public static func decode(_ text: String, requirePadding: Bool = false) -> [UInt8]? {
        decode(Array(text.utf8), requirePadding: requirePadding)
    }
}
