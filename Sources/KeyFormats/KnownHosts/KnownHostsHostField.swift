// How an imported known_hosts host field is stored (docs/formats.md, "How hostbook stores and
// exports entries"): split into one entry per plain name when that matches exactly the lookups
// the whole field matches, otherwise kept whole to be matched by OpenSSH's own rules
// (HostPatternList).

public enum KnownHostsHostField {
    /// One stored entry derived from a host field.
    public struct Name: Sendable, Equatable {
        /// A plain name (lower-cased), or the whole field (a pattern list, a hashed name, or
        /// a single literal no valid lookup equals).
        public let pattern: String
        /// The port of a plain name; 0 for a list or hashed name (the port is part of what
        /// they match); 22 for a kept-whole literal.
        public let port: Int
        public let hashed: HashedHostName?
        /// True for a plain name split out of the field.
        public let plain: Bool
    }

    /// Splits a line's host field. A hashed field is one name. A list is split into one
    /// plain entry per name only when every member is a plain host name or `[host]:port`
    /// (HostNameRule), which matches the same lookups one by one as the list does together.
    /// Anything else (wildcards, a negation — one `!` voids the whole line —, a member of
    /// 1023 bytes or more — which makes the whole line fail in match_pattern_list —, odd
    /// characters) is kept whole and matched as ssh matches it.
    public static func names(of hosts: String) throws -> [Name] {
        // The common case first: one lower-case plain name (a cheap byte test; IPv6
        // addresses and anything else take the full HostNameRule below).
        let utf8 = hosts.utf8
        if utf8.count <= HostNameRule.maxLength, utf8.first.map({ $0 != UInt8(ascii: "-") }) ?? false, utf8.allSatisfy({ c in
            (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
                || c == UInt8(ascii: ".") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
        }) {
            return [Name(pattern: hosts, port: HostLookupName.defaultPort, hashed: nil, plain: true)]
        }
        if HashedHostName.looksHashed(hosts) {
            guard let h = HashedHostName(field: hosts) else { throw KeyFormatError.invalid("bad host hash (expected |1|salt|hash with a 20-byte salt)") }
            return [Name(pattern: hosts, port: 0, hashed: h, plain: false)]
        }
        // Kept whole: a list (port 0), or a single literal that no valid lookup equals
        // (port 22, exported as written).
        let literal = !hosts.utf8.contains { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "!") || $0 == UInt8(ascii: ",") }
        let whole = [Name(pattern: hosts, port: literal ? HostLookupName.defaultPort : 0, hashed: nil, plain: false)]
        var out: [Name] = []
        for part in hosts.split(separator: ",", omittingEmptySubsequences: true) {
            let name = String(part)
            if name.utf8.first == UInt8(ascii: "[") {
                guard let bracketed = HostLookupName.parseBracketed(name), HostNameRule.problem(bracketed.host) == nil else { return whole }
                out.append(Name(pattern: bracketed.host, port: bracketed.port, hashed: nil, plain: true))
            } else {
                let lowered = HostPatternList.lowercased(name)
                guard HostNameRule.problem(lowered) == nil else { return whole }
                out.append(Name(pattern: lowered, port: HostLookupName.defaultPort, hashed: nil, plain: true))
            }
        }
        guard !out.isEmpty else { throw KeyFormatError.invalid("no host names") }
        return out
    }
}
