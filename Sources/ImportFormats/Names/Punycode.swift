// Punycode (RFC 3492) and the IDNA "xn--" label form, for DNS labels that are not ASCII.
// Tailscale's MagicDNS names are usually already punycode; this turns a non-ASCII label
// into the form ssh can dial, and back for display.
import KeyFormats

public enum Punycode {
    // RFC 3492 §5: parameter values for Punycode.
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
    private static let initialBias = 72, initialN = 0x80
    private static let delimiter: UInt8 = 0x2d  // '-'

    /// §6.1: bias adaptation.
    private static func adapt(_ delta: Int, _ numPoints: Int, _ firstTime: Bool) -> Int {
        var delta = firstTime ? delta / damp : delta / 2
        delta += delta / numPoints
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    private static func digit(_ d: Int) -> UInt8 {
        // 0..25 → a..z, 26..35 → 0..9 (§5).
        d < 26 ? UInt8(d) + 0x61 : UInt8(d - 26) + 0x30
    }

    private static func value(of c: UInt8) -> Int? {
        switch c {
        case 0x30...0x39: Int(c) - 22       // 0-9 → 26..35
        case 0x41...0x5a: Int(c) - 0x41     // A-Z
        case 0x61...0x7a: Int(c) - 0x61     // a-z
        default: nil
        }
    }

    /// §6.3: encodes a label's code points. Returns nil on overflow (absurdly long input).
    public static func encode(_ label: String) -> String? {
        let input = label.unicodeScalars.map { Int($0.value) }
        var output: [UInt8] = input.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(delimiter) }
        var n = initialN, delta = 0, bias = initialBias
        while handled < input.count {
            guard let m = input.filter({ $0 >= n }).min() else { break }
            let (step, o1) = (m - n).multipliedReportingOverflow(by: handled + 1)
            if o1 { return nil }
            delta += step
            n = m
            for c in input {
                if c < n { delta += 1; if delta == Int.max { return nil } }
                if c == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// §6.2: decodes a Punycode string (without "xn--"). Nil when it is not valid Punycode.
    public static func decode(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var output: [Int] = []
        var start = 0
        if let last = bytes.lastIndex(of: delimiter) {
            output = bytes[..<last].map { Int($0) }
            start = last + 1
        }
        var n = initialN, i = 0, bias = initialBias
        var pos = start
        while pos < bytes.count {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard pos < bytes.count, let d = value(of: bytes[pos]) else { return nil }
                pos += 1
                let (dw, o1) = d.multipliedReportingOverflow(by: w)
                let (ni, o2) = i.addingReportingOverflow(dw)
                if o1 || o2 { return nil }
                i = ni
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if d < t { break }
                let (nw, o3) = w.multipliedReportingOverflow(by: base - t)
                if o3 { return nil }
                w = nw
                k += base
            }
            bias = adapt(i - oldI, output.count + 1, oldI == 0)
            let (nn, o4) = n.addingReportingOverflow(i / (output.count + 1))
            if o4 { return nil }
            n = nn
            i %= output.count + 1
            guard n < 0x110000, !(0xD800...0xDFFF).contains(n) else { return nil }
            output.insert(n, at: i)
            i += 1
        }
        var s = ""
        for c in output {
            guard let scalar = Unicode.Scalar(UInt32(c)) else { return nil }
            s.unicodeScalars.append(scalar)
        }
        return s
    }

    /// The most code points a label may have for "xn--" + its Punycode to fit in a DNS label.
    static let maxEncodableScalars = HostNameSanitizer.maxLabel - 4

    /// A DNS label as ASCII: unchanged when already ASCII, else "xn--" + Punycode of its
    /// lower-cased form (IDNA's ToASCII without the full mapping tables).
    public static func asciiLabel(_ label: String) -> String {
        if label.utf8.allSatisfy({ $0 < 0x80 }) { return label }
        // Each code point becomes at least one byte of output, so a label of more code
        // points than fit after "xn--" cannot be a DNS label: it is not encoded at all
        // (encoding is quadratic in the label's length).
        guard label.unicodeScalars.count <= maxEncodableScalars, let encoded = encode(label.lowercased()) else { return label }
        return "xn--" + encoded
    }

    /// A DNS label for display: an "xn--" label decoded when valid, else unchanged.
    public static func unicodeLabel(_ label: String) -> String {
        // Longer than a DNS label: not decoded (decoding is quadratic in the length).
        guard label.utf8.count <= HostNameSanitizer.maxLabel,
              label.lowercased().hasPrefix("xn--"), let decoded = decode(String(label.dropFirst(4))),
              !decoded.unicodeScalars.contains(where: PrintableText.isUnsafe) else { return label }
        return decoded
    }

    /// Applies `asciiLabel` to every label of a dotted name.
    public static func asciiName(_ name: String) -> String {
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return name }
        return name.split(separator: ".", omittingEmptySubsequences: false).map { asciiLabel(String($0)) }.joined(separator: ".")
    }
}
