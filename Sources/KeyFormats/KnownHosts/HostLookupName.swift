// The name ssh looks up in known_hosts for a host and port (misc.c put_host_port;
// docs/formats.md, "Lookup names"): the lower-cased host name for port 22 (or 0), `[name]:port`
// otherwise — also for IPv6 addresses (`[2001:db8::1]:2222`).
import System

public struct HostLookupName: Hashable, Sendable {
    /// The lower-cased host name, without brackets or port.
    public let host: String
    public let port: Int

    public static let defaultPort = 22

    public init(host: String, port: Int = HostLookupName.defaultPort) {
        self.host = HostPatternList.lowercased(host)
        self.port = port == 0 ? Self.defaultPort : port
    }

    /// The string matched against patterns and hashed names.
    public var text: String { port == Self.defaultPort ? host : "[\(host)]:\(port)" }

    /// The bare name ssh falls back to when `[name]:port` is unknown (sshconnect.c check_host_key).
    public var bare: HostLookupName? { port == Self.defaultPort ? nil : HostLookupName(host: host) }

    /// Splits a single known_hosts name `[host]:port` into host and port. Plain names and
    /// anything else (no port, port 22, a bad port, wildcards in the port) return nil: such
    /// text is kept verbatim, because ssh never looks up `[host]:22`.
    public static func parseBracketed(_ name: String) -> HostLookupName? {
        let b = Array(name.utf8)
        guard b.count >= 5, b[0] == UInt8(ascii: "["),
              let close = b.lastIndex(of: UInt8(ascii: "]")), close > 1,
              close + 2 < b.count, b[close + 1] == UInt8(ascii: ":") else { return nil }
        let digits = b[(close + 2)...]
        guard digits.count <= 5, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), digits.first != 0x30 else { return nil }
        let port = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        guard TCPPort.isValid(port), port != defaultPort else { return nil }
        let host = String(decoding: b[1..<close], as: UTF8.self)
        guard !host.utf8.contains(UInt8(ascii: "[")), !host.utf8.contains(UInt8(ascii: "]")) else { return nil }
        let parsed = HostLookupName(host: host, port: port)
        // Only a canonical spelling round-trips; anything else stays a literal pattern.
        return parsed.text == HostPatternList.lowercased(name) ? parsed : nil
    }
}
