// `%` tokens (misc.c percent_expand; docs/openssh-behaviour.md, "ssh_config" and
// "KnownHostsCommand"). HostName takes only `%h` and `%%`; IdentityFile takes the connection
// tokens. A `%` before a letter the keyword does not take is an error in ssh, reported here as
// `unknownToken`.

public enum SSHConfigTokens {
    public struct UnknownToken: Error, Sendable, Equatable {
        /// The text after `%` (one character, or nothing at the end of the value).
        public let token: String
    }

    /// Replaces `%X` with `values[X]` and `%%` with `%`.
    public static func expand(_ text: String, _ values: [Character: String]) throws(UnknownToken) -> String {
        guard text.contains("%") else { return text }
        var out = ""
        var it = text.makeIterator()
        while let c = it.next() {
            guard c == "%" else { out.append(c); continue }
            guard let k = it.next() else { throw UnknownToken(token: "") }
            if k == "%" { out.append("%"); continue }
            guard let v = values[k] else { throw UnknownToken(token: String(k)) }
            out += v
        }
        return out
    }

    /// HostName as ssh uses it: `%h` is the alias as typed.
    public static func expandHostName(_ hostName: String, originalHost: String) throws(UnknownToken) -> String {
        try expand(hostName, ["h": originalHost])
    }

    /// ssh.c: the host name is lower-cased unless it looks like an address (is_addr_fast:
    /// it has a `:` or `%`, or is only digits and dots).
    public static func canonicalCase(_ host: String) -> String {
        let u = host.utf8
        if u.contains(UInt8(ascii: ":")) || u.contains(UInt8(ascii: "%")) { return host }
        if u.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }) { return host }
        return HostPatternMatch.lowercased(host)
    }
}
