// The rules for what a host may hold. Each failure is a `.rejected` error (exit 5) whose
// message names the value and says what is allowed.
#if canImport(Glibc)
import Glibc
#endif

public enum HostValidation {
    public static let maxNoteBytes = 4096

    /// 1–64 letters, digits, `.`, `_`, `-` (names are unique regardless of case).
    public static func name(_ s: String, what: String = "host name") throws {
        guard isName(s) else {
            throw HostStoreError.rejected("invalid \(what) '\(s)': use 1 to 64 letters, digits, '.', '_' or '-'")
        }
    }

    static func isName(_ s: String) -> Bool {
        let u = s.utf8
        return (1...64).contains(u.count) && u.allSatisfy { isAlnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    /// A DNS name (RFC 1123 labels), an IPv4 address, or an IPv6 address (with an optional
    /// `%zone`), written without brackets.
    public static func hostname(_ s: String) throws {
        if s.hasPrefix("[") && s.hasSuffix("]") {
            throw HostStoreError.rejected("invalid hostname '\(s)': write an IPv6 address without brackets")
        }
        guard isDNSName(s) || isIPv4(s) || isIPv6(s) else {
            throw HostStoreError.rejected("invalid hostname '\(s)': use a DNS name, an IPv4 address or an IPv6 address")
        }
    }

    /// RFC 1123 §2.1 labels of 1–63 letters, digits and hyphens, not starting or ending with
    /// a hyphen; at most 253 characters (one trailing dot allowed). `_` is allowed too, as ssh
    /// and the resolver accept it (`_sip._tcp`-style and Windows-era names); a leading `-`
    /// (read by ssh as an option), whitespace and control characters stay refused. A name
    /// whose labels are all digits must be an IPv4 address instead.
    static func isDNSName(_ s: String) -> Bool {
        var name = Substring(s)
        if name.hasSuffix(".") { name = name.dropLast() }
        guard (1...253).contains(name.utf8.count) else { return false }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            let u = label.utf8
            guard (1...63).contains(u.count), u.allSatisfy({ isAlnum($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }),
                  u.first != UInt8(ascii: "-"), u.last != UInt8(ascii: "-") else { return false }
        }
        return !labels.allSatisfy { $0.utf8.allSatisfy(isDigit) }
    }

    /// Dotted-quad IPv4: four decimal numbers 0–255 without leading zeros.
    static func isIPv4(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        return parts.allSatisfy { p in
            let u = p.utf8
            guard (1...3).contains(u.count), u.allSatisfy(isDigit), !(u.count > 1 && u.first == UInt8(ascii: "0")) else { return false }
            return Int(p)! <= 255
        }
    }

    /// IPv6 as inet_pton(3) reads it (RFC 4291 §2.2), optionally followed by `%zone`.
    static func isIPv6(_ s: String) -> Bool {
        var address = Substring(s)
        if let pct = s.firstIndex(of: "%") {
            let zone = s[s.index(after: pct)...].utf8
            guard (1...32).contains(zone.count),
                  zone.allSatisfy({ isAlnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }) else { return false }
            address = s[..<pct]
        }
        guard address.contains(":") else { return false }
        var buf = in6_addr()
        return inet_pton(AF_INET6, String(address), &buf) == 1
    }

    public static func port(_ n: Int) throws {
        guard (1...65535).contains(n) else { throw portError(String(n)) }
    }

    /// Reads `--port` text: a malformed or out-of-range value is rejected the same way.
    public static func port(text: String) throws -> Int {
        guard text.utf8.count <= 6, text.utf8.allSatisfy(isDigit), let n = Int(text), (1...65535).contains(n) else {
            throw portError(text)
        }
        return n
    }

    static func portError(_ text: String) -> HostStoreError {
        HostStoreError.rejected("invalid port '\(text)': use a whole number from 1 to 65535")
    }

    /// A login name: 1–64 letters, digits, `.`, `_`, `-`, `@`, not starting with `-` (which
    /// ssh would read as an option).
    public static func user(_ s: String) throws {
        let u = s.utf8
        guard (1...64).contains(u.count), u.first != UInt8(ascii: "-"),
              u.allSatisfy({ isAlnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "@") }) else {
            throw HostStoreError.rejected("invalid user '\(s)': use 1 to 64 letters, digits, '.', '_', '-' or '@', not starting with '-'")
        }
    }

    /// A tag: 1–64 letters, digits, `.`, `_`, `-`, `:` (so Tailscale's `tag:prod` fits).
    public static func tag(_ s: String) throws {
        let u = s.utf8
        guard (1...64).contains(u.count),
              u.allSatisfy({ isAlnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") }) else {
            throw HostStoreError.rejected("invalid tag '\(s)': use 1 to 64 letters, digits, '.', '_', '-' or ':'")
        }
    }

    /// Free text on one line: at most 4096 bytes, no control characters or bidi controls.
    public static func note(_ s: String) throws {
        if s.utf8.count > maxNoteBytes {
            throw HostStoreError.rejected("the note is too long (\(s.utf8.count) bytes; at most \(maxNoteBytes))")
        }
        if let problem = TextRules.firstForbiddenScalar(in: s) {
            throw HostStoreError.rejected("the note contains \(problem.description)", hint: "Write the note on one line without control characters.")
        }
    }

    static func isAlnum(_ b: UInt8) -> Bool { isDigit(b) || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z")) }
    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
