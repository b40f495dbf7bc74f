// The validity window of `ca sign`: `--valid DURATION` (a number and a unit, s m h d w, from
// 5s to 3650d) from now or from --valid-from, or --valid-from/--valid-to times (RFC 3339:
// `2026-12-07T10:00:00Z`, `...+02:00`, or `now`). Times are seconds since the epoch, as in
// the certificate; printed back in UTC.
#if canImport(Glibc)
import Glibc
import HostStore
#endif

public enum CertificateValidity {
    public static let shortest: UInt64 = 5
    public static let longest: UInt64 = 3650 * 86_400

    /// Seconds in `text` (`90s`, `15m`, `8h`, `30d`, `2w`), nil when it is not a duration.
    public static func seconds(_ text: String) -> UInt64? {
        guard let unit = text.last, let count = UInt64(text.dropLast()), !text.dropLast().isEmpty,
              text.dropLast().allSatisfy(\.isASCII) else { return nil }
        let scale: UInt64
        switch unit {
        case "s": scale = 1
        case "m": scale = 60
        case "h": scale = 3600
        case "d": scale = 86_400
        case "w": scale = 604_800
        default: return nil
        }
        let (total, overflow) = count.multipliedReportingOverflow(by: scale)
        return overflow ? nil : total
    }

    /// Seconds since the epoch of an RFC 3339 time (`Z` or `±HH:MM`), or of `now`.
    public static func time(_ text: String, now: UInt64) -> UInt64? {
        if text == "now" { return now }
        let b = Array(text.utf8)
        guard b.count >= 20 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var n = 0
            for c in b[from..<(from + count)] {
                guard c >= 0x30, c <= 0x39 else { return nil }
                n = n * 10 + Int(c - 0x30)
            }
            return n
        }
        guard let year = number(0, 4), b[4] == 0x2d, let month = number(5, 2), b[7] == 0x2d, let day = number(8, 2),
              b[10] == 0x54 || b[10] == 0x74, let hour = number(11, 2), b[13] == 0x3a, let minute = number(14, 2),
              b[16] == 0x3a, let second = number(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61, year >= 1970 else { return nil }
        var rest = 19
        if rest < b.count, b[rest] == 0x2e {
            rest += 1
            while rest < b.count, b[rest] >= 0x30, b[rest] <= 0x39 { rest += 1 }
        }
        var offset = 0
        if rest == b.count - 1, b[rest] == 0x5a || b[rest] == 0x7a {
            offset = 0
        } else if rest == b.count - 6, b[rest] == 0x2b || b[rest] == 0x2d, b[rest + 3] == 0x3a,
                  let oh = number(rest + 1, 2), let om = number(rest + 4, 2), oh < 24, om < 60 {
            offset = (oh * 3600 + om * 60) * (b[rest] == 0x2d ? -1 : 1)
        } else {
            return nil
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let epoch = Int(timegm(&parts)) - offset
        guard parts.tm_mday == Int32(day), epoch >= 0 else { return nil }
        return UInt64(epoch)
    }

    /// `2026-12-07T10:00:00Z`; `forever` for the largest time.
    public static func text(_ time: UInt64) -> String {
        if time == UInt64.max { return "forever" }
        var t = time_t(clamping: time)
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// The window from the options: exactly one of --valid and --valid-to; --valid-from
    /// defaults to now. Refused when out of bounds or reversed.
    public static func window(valid: String?, from: String?, to: String?, now: UInt64) throws(KeysRefusal) -> (after: UInt64, before: UInt64) {
        let start: UInt64
        if let from {
            guard let t = time(from, now: now) else { throw KeysRefusal.validFromNotATime(from) }
            start = t
        } else {
            start = now
        }
        let end: UInt64
        switch (valid, to) {
        case (let valid?, nil):
            guard let d = seconds(valid) else {
                throw KeysRefusal.validNotADuration(valid)
            }
            guard d >= shortest, d <= longest else {
                throw KeysRefusal.validOutOfBounds(valid)
            }
            end = start + d
        case (nil, let to?):
            guard let t = time(to, now: now) else { throw KeysRefusal.validToNotATime(to) }
            end = t
        case (nil, nil):
            throw KeysRefusal.validityMissing
        case (_?, _?):
            throw KeysRefusal.validAndValidTo
        }
        guard end > start else { throw KeysRefusal.expiresBeforeValid }
        guard end - start >= shortest, end - start <= longest else {
            throw KeysRefusal.windowOutOfBounds
        }
        return (start, end)
    }

    /// Seconds since the epoch now, as the store dates its records (StoreClock).
    public static func now() -> UInt64 { StoreClock.nowSeconds() }
}
