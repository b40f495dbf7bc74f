// The audit trail of host-key decisions (docs/known-hosts.md; the `host-key-event`
// object of docs/json.md).
#if canImport(Glibc)
import Glibc
#endif

public struct HostKeyEvent: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case approved, rejected, replaced, revoked, imported, removed
        /// A key the server proved after a login with a key already trusted for the name
        /// (HostKeyRotation), and an entry of a key the server no longer offers.
        case learned, retired
    }

    public let at: String
    public let event: String
    public let host: String
    public let port: Int
    public let keyType: String?
    public let fingerprint: String?
    public let oldFingerprint: String?
    public let source: String

    /// The port as `known-hosts list` shows an entry's: nil for a hashed or pattern entry,
    /// whose events are stored with port 0 (KnownHostRow.displayPort).
    public var displayPort: Int? { port == 0 ? nil : port }
}

/// UTC timestamps as the database stores them: `YYYY-MM-DDTHH:MM:SSZ`.
public enum StoreClock {
    public static func nowSeconds() -> UInt64 { UInt64(max(0, time(nil))) }

    public static func timestamp(_ seconds: UInt64 = nowSeconds()) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        func pad(_ n: Int32, _ w: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, w - s.count)) + s
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))Z"
    }
}
