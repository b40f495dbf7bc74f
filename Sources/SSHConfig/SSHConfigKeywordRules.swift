// The checks ssh makes while reading, for the keywords hostbook takes values from (ssh
// refuses the whole file when one fails, in an active block or not): one argument for
// HostName, User, IdentityFile and Port, a port from 1 to 65535, a ProxyJump of
// `[user@]host[:port]` hops or `none`. Other keywords are kept as written.
import System

enum SSHConfigKeywordRules {
    static let singleArgument: Set<String> = ["hostname", "user", "identityfile", "port"]

    static func check(_ d: SSHConfigDirective) throws(SSHConfigError) {
        func fail(_ message: String) -> SSHConfigError {
            SSHConfigError(.syntax, file: d.file, line: d.lineNumber, message)
        }
        if singleArgument.contains(d.keyword), d.arguments.count > 1 {
            throw fail("keyword \(d.keyword) extra arguments at end of line")
        }
        switch d.keyword {
        case "hostname", "user", "identityfile":
            if d.arguments.isEmpty { throw fail("no argument after keyword \"\(d.keyword)\"") }
        case "port":
            guard let text = d.arguments.first else { throw fail("no argument after keyword \"port\"") }
            if SSHConfigValues.port(text) == nil { throw fail("Bad port '\(text)'.") }
        case "proxyjump":
            if d.arguments.isEmpty { throw fail("no argument after keyword \"proxyjump\"") }
            let spec = SSHConfigValues.jumpSpec(d.line.rest)
            if SSHConfigValues.jumpHops(spec) == nil { throw fail("Invalid ProxyJump \"\(d.line.rest)\"") }
        default:
            break
        }
    }
}

/// Values as ssh reads them.
public enum SSHConfigValues {
    /// misc.c a2port for decimal text: strtonum(0, 65535), and 0 is refused. (A service
    /// name from /etc/services, which ssh also takes, is not looked up: nil.)
    public static func port(_ text: String) -> Int? {
        var digits = Substring(text)
        while let f = digits.first, f == " " || f == "\t" { digits = digits.dropFirst() }
        if digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.utf8.count <= 12, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let n = Int(digits), TCPPort.isValid(n) else { return nil }
        return n
    }

    /// readconf.c parse_jump: the rest of a ProxyJump line without a comment (from the
    /// first `#`) and trailing whitespace.
    public static func jumpSpec(_ rest: String) -> String {
        var s = Substring(rest)
        if let hash = s.firstIndex(of: "#") { s = s[..<hash] }
        while let l = s.last, l == " " || l == "\t" || l == "\r" || l == "\n" { s = s.dropLast() }
        while let f = s.first, f == " " || f == "\t" || f == "=" { s = s.dropFirst() }
        return String(s)
    }

    /// One hop of a ProxyJump: `[user@]host[:port]` or `ssh://[user@]host[:port]`.
    public struct JumpHop: Sendable, Equatable {
        public let user: String?
        public let host: String
        public let port: Int?

        public init(user: String?, host: String, port: Int?) {
            self.user = user
            self.host = host
            self.port = port
        }
    }

    /// The hops of a ProxyJump value, first hop first; [] for `none`; nil when ssh would
    /// refuse the value.
    public static func jumpHops(_ spec: String) -> [JumpHop]? {
        if HostPatternMatch.lowercased(spec) == "none" { return [] }
        if spec.isEmpty { return nil }
        var hops: [JumpHop] = []
        for part in spec.split(separator: ",", omittingEmptySubsequences: false) {
            guard let hop = hop(String(part)) else { return nil }
            hops.append(hop)
        }
        return hops
    }

    /// readconf.c keeps the last hop parsed (user, host, port) and the earlier ones as
    /// text; `ssh -G` prints them back in that form, and `none` in lower case.
    public static func printedJump(_ spec: String) -> String {
        guard let hops = jumpHops(spec) else { return spec }
        guard let last = hops.last else { return spec }
        var out = ""
        if let comma = spec.lastIndex(of: ",") { out = String(spec[...comma]) }
        if let user = last.user { out += user + "@" }
        out += last.host
        if let port = last.port { out += ":\(port)" }
        return out
    }

    static func hop(_ text: String) -> JumpHop? {
        var s = Substring(text)
        if s.hasPrefix("ssh://") {
            s = s.dropFirst(6)
            if s.hasSuffix("/") { s = s.dropLast() }
        }
        var user: String?
        if let at = s.lastIndex(of: "@") {
            user = String(s[..<at])
            s = s[s.index(after: at)...]
            if user!.isEmpty { return nil }
        }
        var host: Substring
        var port: Int?
        if s.hasPrefix("[") {
            guard let close = s.firstIndex(of: "]") else { return nil }
            host = s[s.index(after: s.startIndex)..<close]
            let after = s[s.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let p = Self.port(String(after.dropFirst())) else { return nil }
                port = p
            }
        } else if let colon = s.firstIndex(of: ":") {
            host = s[..<colon]
            guard let p = Self.port(String(s[s.index(after: colon)...])) else { return nil }
            port = p
        } else {
            host = s
        }
        if host.isEmpty || host.contains(" ") || host.contains("\t") { return nil }
        return JumpHop(user: user, host: String(host), port: port)
    }
}
