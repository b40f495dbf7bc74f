// The one owner of "is this a valid host name": two questions in one file, over one core.
//
// - `problem` / `lookup`: a host name that the known-hosts side is given as a single name
//   (approve, revoke, remove, check, scan, `list HOST`, Tailscale names): a plain host name or
//   address, or `[host]:port` with a valid plain host inside. Patterns, lists, negation,
//   whitespace, control characters and NUL are refused with the reason: such a name would be
//   stored or exported as something ssh reads differently (`[*]:2222` matches every host, `a,b`
//   is two names, a space ends the host field). Imported known_hosts files are not held to this
//   rule: their host fields are kept exactly as OpenSSH reads them.
// - `hostnameProblem`: a saved host's `--hostname` (HostValidation in HostStore reports it):
//   no brackets, no port, and every label checked, since ssh dials exactly this string.
//
// The core is implemented once, here: a DNS name of RFC 1123 labels (`isDNSName`), a
// dotted-quad IPv4 address (`isIPv4`) and an IPv6 address with an optional zone as
// inet_pton(3) reads it (`isIPv6`, `ipv6Bytes`). The saved-host rule is built on it, and so
// are the Tailscale reader and mapping (ImportFormats, HostStore). The known-hosts rule
// shares its length limit but is deliberately looser: it refuses what would change meaning in
// a known_hosts host field and checks only the shape of an address holding ':' (hex digits,
// colons, dots; `looksLikeIPv6`), since it names hosts as ssh looks them up rather than as a
// resolver would accept them.
#if canImport(Glibc)
import Glibc
#endif
import System

public enum HostNameRule {
    /// DNS's limit for a whole name (RFC 1035 §2.3.4, without the trailing dot).
    public static let maxLength = 253

    /// Why `name` is not a plain host name or address, or nil when it is one.
    public static func problem(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty else { return "the host name is empty" }
        if bytes.contains(0) { return "it contains a NUL byte" }
        for s in name.unicodeScalars {
            if s == " " || s == "\t" || s == "\n" || s == "\r" || s.properties.isWhitespace { return "it contains whitespace" }
            if PrintableText.isUnsafe(s) { return "it contains a control character" }
        }
        if bytes.contains(UInt8(ascii: "*")) || bytes.contains(UInt8(ascii: "?")) { return "it is a pattern (* and ? are wildcards in known_hosts)" }
        if bytes.contains(UInt8(ascii: "!")) { return "it is a negation (! negates a known_hosts pattern)" }
        if bytes.contains(UInt8(ascii: ",")) { return "it is a list (a comma separates known_hosts names)" }
        if bytes.contains(UInt8(ascii: "[")) || bytes.contains(UInt8(ascii: "]")) { return "brackets are allowed only around the whole host, as [host]:port" }
        if bytes.contains(UInt8(ascii: "|")) { return "'|' starts a hashed known_hosts name" }
        if bytes.contains(where: { $0 >= 0x80 }) { return "it contains non-ASCII characters; give the IDNA form (xn--...)" }
        if let bad = bytes.first(where: { !isNameByte($0) }) {
            return "it contains '\(Character(UnicodeScalar(bad)))', which a host name cannot hold"
        }
        guard bytes.count <= maxLength else { return "it is longer than \(maxLength) characters" }
        if bytes.first == UInt8(ascii: "-") { return "it starts with '-'" }
        if bytes.contains(UInt8(ascii: ":")) && !looksLikeIPv6(bytes) {
            return "':' is allowed only in an IPv6 address; give the port with --port or as [host]:port"
        }
        if bytes.contains(UInt8(ascii: "%")) && !bytes.contains(UInt8(ascii: ":")) { return "'%' is allowed only in an IPv6 address with a zone" }
        return nil
    }

    /// The lookup name for `text` (a plain name, or `[host]:port`) and `port` (nil: not
    /// given). Throws `KeyFormatError.invalid` with the reason.
    public static func lookup(_ text: String, port: Int? = nil) throws -> HostLookupName {
        if text.utf8.first == UInt8(ascii: "[") {
            let b = Array(text.utf8)
            guard let close = b.firstIndex(of: UInt8(ascii: "]")), close + 1 < b.count, b[close + 1] == UInt8(ascii: ":") else {
                throw KeyFormatError.invalid("brackets are allowed only as [host]:port")
            }
            let inner = String(decoding: b[1..<close], as: UTF8.self)
            if let why = problem(inner) { throw KeyFormatError.invalid(why) }
            let digits = b[(close + 2)...]
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), digits.first != 0x30,
                  let value = Int(String(decoding: digits, as: UTF8.self)), TCPPort.isValid(value) else {
                throw KeyFormatError.invalid("the port after [host]: must be a number from \(TCPPort.range.lowerBound) to \(TCPPort.range.upperBound)")
            }
            if let port, port != value { throw KeyFormatError.invalid("it names port \(value) but --port says \(port)") }
            return HostLookupName(host: inner, port: value)
        }
        if let why = problem(text) { throw KeyFormatError.invalid(why) }
        return HostLookupName(host: text, port: port ?? HostLookupName.defaultPort)
    }

    /// Why `name` cannot be a saved host's `--hostname`, or nil when it can: a DNS name, an
    /// IPv4 address or an IPv6 address (with an optional `%zone`), written without brackets.
    public static func hostnameProblem(_ name: String) -> String? {
        if name.hasPrefix("[") && name.hasSuffix("]") {
            return "invalid hostname '\(name)': write an IPv6 address without brackets"
        }
        guard isDNSName(name) || isIPv4(name) || isIPv6(name) else {
            return "invalid hostname '\(name)': use a DNS name, an IPv4 address or an IPv6 address"
        }
        return nil
    }

    /// RFC 1123 §2.1 labels of 1–63 letters, digits and hyphens, not starting or ending with
    /// a hyphen; at most 253 characters (one trailing dot allowed). `_` is allowed too, as ssh
    /// and the resolver accept it (`_sip._tcp`-style and Windows-era names); a leading `-`
    /// (read by ssh as an option), whitespace and control characters stay refused. A name
    /// whose labels are all digits must be an IPv4 address instead.
    public static func isDNSName(_ s: String) -> Bool {
        var name = Substring(s)
        if name.hasSuffix(".") { name = name.dropLast() }
        guard (1...maxLength).contains(name.utf8.count) else { return false }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            let u = label.utf8
            guard (1...63).contains(u.count), u.allSatisfy({ isAlnum($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }),
                  u.first != UInt8(ascii: "-"), u.last != UInt8(ascii: "-") else { return false }
        }
        return !labels.allSatisfy { $0.utf8.allSatisfy(isDigit) }
    }

    /// Dotted-quad IPv4: four decimal numbers 0–255 without leading zeros.
    public static func isIPv4(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        return parts.allSatisfy { p in
            let u = p.utf8
            guard (1...3).contains(u.count), u.allSatisfy(isDigit), !(u.count > 1 && u.first == UInt8(ascii: "0")) else { return false }
            return Int(p)! <= 255
        }
    }

    /// IPv6 as inet_pton(3) reads it (RFC 4291 §2.2), optionally followed by `%zone`.
    public static func isIPv6(_ s: String) -> Bool {
        var address = Substring(s)
        if let pct = s.firstIndex(of: "%") {
            let zone = s[s.index(after: pct)...].utf8
            guard (1...32).contains(zone.count),
                  zone.allSatisfy({ isAlnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }) else { return false }
            address = s[..<pct]
        }
        return ipv6Bytes(String(address)) != nil
    }

    /// The 16 bytes of an IPv6 address without a zone, as inet_pton(3) reads it, or nil.
    public static func ipv6Bytes(_ address: String) -> [UInt8]? {
        guard address.contains(":") else { return nil }
        var buf = in6_addr()
        guard inet_pton(AF_INET6, address, &buf) == 1 else { return nil }
        return withUnsafeBytes(of: &buf) { Array($0) }
    }

    /// An IPv4 or IPv6 address without a zone.
    public static func isIPAddress(_ s: String) -> Bool {
        !s.contains("%") && (isIPv4(s) || isIPv6(s))
    }

    static func isAlnum(_ b: UInt8) -> Bool { isDigit(b) || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z")) }
    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
            || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") || c == UInt8(ascii: "%")
    }

    /// The known-hosts rule's shape of an IPv6 address: hex digits, colons and dots (an
    /// embedded IPv4 address), then an optional `%zone`.
    static func looksLikeIPv6(_ b: [UInt8]) -> Bool {
        let address = b.split(separator: UInt8(ascii: "%"), maxSplits: 1, omittingEmptySubsequences: false)
        guard let head = address.first, head.count >= 2, head.filter({ $0 == UInt8(ascii: ":") }).count >= 2 else { return false }
        let hex = head.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66) || c == UInt8(ascii: ":") || c == UInt8(ascii: ".")
        }
        guard hex else { return false }
        if address.count == 2 { return !address[1].isEmpty && !address[1].contains(UInt8(ascii: ":")) }
        return true
    }
}
