// The validator for a host name that the known-hosts side is given as a single name (approve,
// revoke, remove, check, scan, `list HOST`, Tailscale names): a plain host name or address, or
// `[host]:port` with a valid plain host inside. Patterns, lists, negation, whitespace, control
// characters and NUL are refused with the reason: such a name would be stored or exported as
// something ssh reads differently (`[*]:2222` matches every host, `a,b` is two names, a space
// ends the host field). Imported known_hosts files are not held to this rule: their host fields
// are kept exactly as OpenSSH reads them. A saved host's `--hostname` has a rule of its own
// (HostValidation in HostStore: no brackets, no port).

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
        if bytes.contains(UInt8(ascii: ":")) && !isIPv6(bytes) {
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
                  let value = Int(String(decoding: digits, as: UTF8.self)), (1...65535).contains(value) else {
                throw KeyFormatError.invalid("the port after [host]: must be a number from 1 to 65535")
            }
            if let port, port != value { throw KeyFormatError.invalid("it names port \(value) but --port says \(port)") }
            return HostLookupName(host: inner, port: value)
        }
        if let why = problem(text) { throw KeyFormatError.invalid(why) }
        return HostLookupName(host: text, port: port ?? HostLookupName.defaultPort)
    }

    static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
            || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") || c == UInt8(ascii: "%")
    }

    /// Hex digits, colons and dots (an embedded IPv4 address), then an optional `%zone`.
    static func isIPv6(_ b: [UInt8]) -> Bool {
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
