// HOST as every known-hosts command reads it: the name of a saved host stands for its
// hostname and port (an explicit port still wins); anything else is one host name or
// address, or `[host]:port`, by the known-hosts name rule (HostNameRule). Patterns, lists,
// negation, whitespace, control characters and NUL are refused (`notAHostName`).
import HostStore
import KeyFormats

public enum KnownHostName {
    public struct Resolved: Sendable {
        public let lookup: HostLookupName
        /// The saved host HOST named, or nil.
        public let savedHost: String?
        /// A port was named: explicitly, by `[host]:port`, or by a saved host (`list` and
        /// `history` then show that port only; a plain name alone means any port).
        public let portNamed: Bool
        /// HOST named a saved host.
        public var saved: Bool { savedHost != nil }
    }

    /// `given` with `port` (nil: none given); the saved hosts are read from the workspace's
    /// database when there is one (nothing is created).
    public static func resolve(_ given: String, port: Int?, in workspace: Workspace) throws -> Resolved {
        if !given.hasPrefix("["), let saved = try workspace.existingDatabase()?.host(named: given) {
            try validate(saved.hostname)
            let lookup = try HostNameRule.lookup(saved.hostname, port: port ?? saved.port)
            return Resolved(lookup: lookup, savedHost: saved.name, portNamed: true)
        }
        return Resolved(lookup: try lookup(given, port: port), savedHost: nil, portNamed: port != nil || given.hasPrefix("["))
    }

    /// A plain host name or address, or `[host]:port`, with `port`.
    public static func lookup(_ host: String, port: Int?) throws -> HostLookupName {
        do {
            return try HostNameRule.lookup(host, port: port)
        } catch let e as KeyFormatError {
            throw KnownHostsRefusal.notAHostName(host, reason: e.reason)
        }
    }

    /// Refuses anything but a plain host name or address.
    public static func validate(_ host: String) throws {
        if let why = HostNameRule.problem(host) { throw KnownHostsRefusal.notAHostName(host, reason: why) }
    }
}
