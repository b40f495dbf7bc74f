// The time importers write into created_at / updated_at / audit rows: UTC, RFC 3339,
// whole seconds, the same text SQLite's strftime('%Y-%m-%dT%H:%M:%SZ','now') gives.
#if canImport(Glibc)
import Glibc
#endif

enum ImportClock {
    static func nowUTC() -> String {
        var t = time(nil)
        var parts = tm()
        gmtime_r(&t, &parts)
        func pad(_ n: Int32, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))Z"
    }
}
