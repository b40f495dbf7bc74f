// A certificate's validity window as hostbook shows it (`keys show`, `keys list --json`,
// the agent log, doctor): UTC, ISO 8601 to the second. PROTOCOL.certkeys: valid after 0
// means "from the beginning", valid before 2^64-1 means "forever" (ssh-keygen -L prints
// "forever" for both ends).

extension Certificate {
    /// The largest value, which OpenSSH reads as "no end".
    public static let forever = UInt64.max

    /// `validAfter` in UTC (`2026-12-07T05:00:00Z`), or nil for "always" (0).
    public var validFromText: String? { validAfter == 0 ? nil : Self.utc(validAfter) }
    /// `validBefore` in UTC, or nil for "forever".
    public var validToText: String? { validBefore == Self.forever ? nil : Self.utc(validBefore) }

    /// `from A to B` as ssh-keygen -L words it, in UTC (`forever` for an open end).
    public var validityText: String {
        if validAfter == 0 && validBefore == Self.forever { return "forever" }
        return "from \(validFromText ?? "always") to \(validToText ?? "forever")"
    }

    /// The SHA-256 fingerprint of the CA's key, `SHA256:...` as ssh-keygen -L prints it.
    public var caFingerprint: String { signatureKey.sha256Fingerprint }

    /// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ` (H. Hinnant's civil_from_days);
    /// a time past the year 9999 is shown as that year's end.
    public static func utc(_ seconds: UInt64) -> String {
        let s = Int(min(seconds, 253_402_300_799))   // 9999-12-31T23:59:59Z
        let days = s / 86_400, rest = s % 86_400
        let z = days + 719_468
        let era = z / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func pad(_ n: Int, _ width: Int) -> String {
            let text = String(n)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(rest / 3600, 2)):\(pad(rest / 60 % 60, 2)):\(pad(rest % 60, 2))Z"
    }
}
