// Host aliases from names that were never meant to be one: an OS-reported hostname may
// hold spaces, capitals, emoji or `&` (docs/formats.md, "From a device to a host").

public enum HostNameSanitizer {
    /// Longest DNS label (RFC 1035 §2.3.4).
    public static let maxLabel = 63

    /// Lower-cases, keeps ASCII letters and digits, turns separators (space, `_`, `.`, `-`)
    /// into single hyphens, drops everything else, and trims hyphens at the ends.
    /// "🚀 Zoë's build box 🚀" → "zos-build-box"; "R&D <lab>" → "rd-lab". May return "".
    public static func label(from raw: String) -> String {
        var out: [UInt8] = []
        var pendingHyphen = false
        for scalar in raw.unicodeScalars {
            let v = scalar.value
            switch v {
            case 0x30...0x39, 0x61...0x7a, 0x41...0x5a:
                if pendingHyphen && !out.isEmpty { out.append(0x2d) }
                pendingHyphen = false
                out.append(v >= 0x41 && v <= 0x5a ? UInt8(v + 0x20) : UInt8(v))
            case 0x20, 0x5f, 0x2e, 0x2d, 0x09:
                pendingHyphen = true
            default:
                continue
            }
        }
        if out.count > maxLabel {
            out.removeLast(out.count - maxLabel)
            while out.last == 0x2d { out.removeLast() }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
