// Who may speak for a host (docs/formats.md, "Who may speak for a host"): the one rule every
// writer of trust goes through — a team bundle's host-key lines, a Tailscale import's
// pre-trusted keys, the user's known_hosts import and approvals — and the rule for the
// names a host of another origin may take.
//
// Every trust entry (a plain or hashed key, `@cert-authority`, `@revoked`) has an origin.
// The user may write any. Any other origin may write an entry only for a hostname:port it
// speaks for — its own hosts' (a bundle), or its tailnet's (Tailscale) — or within a scope
// the user granted it; and never for a hostname:port that a host of another origin points
// at (a port-22 entry also covers that hostname at every port: ssh falls back to the bare
// name), nor one another origin holds trust for (a key the user approved or imported). It is
// decided by the hostnames, addresses and ports an entry covers, never by host names.
//
// A host of an origin other than the user may not be named like something this machine
// resolves by itself (`localhost`, a name in /etc/hosts, its own hostname: LocalHostNames).
import ImportFormats
import KeyFormats
import System

/// Where a trust entry or a host came from.
public enum TrustOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The user: approvals at first use, `known-hosts approve`/`revoke`, their own imports
    /// of a known_hosts or ssh_config file, hosts they added.
    case user
    /// A Tailscale import.
    case tailscale
    /// A team bundle, by name.
    case bundle(String)
    /// A host-key rotation the server announced (not written yet).
    case rotation
    /// A certificate authority, by name (not written yet).
    case certificateAuthority(String)

    /// The origin of a stored `source` (hosts.source, known_hosts.source): NULL, `manual`,
    /// `tofu`, `import`, `ssh-config` and every other word are the user's.
    public init(source: String?) {
        guard let source else { self = .user; return }
        if source.hasPrefix("bundle:") {
            self = .bundle(String(source.dropFirst(7)))
        } else if source == TailscaleImporter.source {
            self = .tailscale
        } else if source == "rotation" {
            self = .rotation
        } else if source.hasPrefix("ca:") {
            self = .certificateAuthority(String(source.dropFirst(3)))
        } else {
            self = .user
        }
    }

    public var description: String {
        switch self {
        case .user: "you"
        case .tailscale: "Tailscale"
        case .bundle(let name): "bundle '\(BundleText.escaped(name))'"
        case .rotation: "a key rotation"
        case .certificateAuthority(let name): "certificate authority '\(BundleText.escaped(name))'"
        }
    }
}

/// Why an entry or a host name is refused to an origin.
public struct TrustRefusal: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A name outside what the origin speaks for (not one of a bundle's hosts, not the
        /// tailnet's).
        case notItsHost
        /// A wildcard, negation or pattern list the user did not grant the origin.
        case widerPattern
        /// A hashed line the bundle's names cannot all be tested against (a work bound).
        case tooManyHashed
        /// The hostname:port a host of another origin points at.
        case hostOfAnotherOrigin(host: String, origin: TrustOrigin, address: String)
        /// Another origin holds trust for that hostname:port (a key the user trusts).
        /// Nothing is written; a caller with a key decision (CHANGED, agreement) may report
        /// that instead.
        case trustedByAnotherOrigin(origin: TrustOrigin, address: String)
        /// A host name ssh resolves on this machine without asking DNS.
        case localName(String)
    }

    public let kind: Kind
    /// One line, in a user's words.
    public let reason: String

    public var description: String { reason }
}

/// The hosts of every origin by hostname, as the rule compares them.
public struct TrustClaims: Sendable {
    struct Claim: Sendable {
        let name: String
        let port: Int
        let origin: TrustOrigin
    }

    /// Lower-cased hostname → the hosts pointing at it.
    private(set) var hosts: [String: [Claim]] = [:]

    public init() {}

    /// Adds a host (`source` as stored: NULL is the user's).
    mutating func add(name: String, hostname: String, port: Int, source: String?) {
        hosts[HostPatternList.lowercased(hostname), default: []].append(Claim(name: name, port: port, origin: TrustOrigin(source: source)))
    }

    /// Every saved host of the database.
    static func read(_ connection: SQLiteConnection) throws -> TrustClaims {
        var claims = TrustClaims()
        let s = try connection.prepare("SELECT name, hostname, port, source FROM hosts")
        while try s.step() {
            guard let name = s.text(at: 0), let hostname = s.text(at: 1), let port = s.int(at: 2) else { continue }
            claims.add(name: name, hostname: hostname, port: Int(port), source: s.text(at: 3))
        }
        return claims
    }

    /// A host of an origin other than `origin` that an entry for `lookup` decides for: one
    /// at that hostname and port, or, for port 22, at that hostname on any port (ssh's
    /// fallback to the bare name). The user's first.
    func otherHost(covering lookup: HostLookupName, besides origin: TrustOrigin) -> Claim? {
        let others = (hosts[lookup.host] ?? []).filter {
            $0.origin != origin && ($0.port == lookup.port || lookup.port == HostLookupName.defaultPort)
        }
        return others.first { $0.origin == .user } ?? others.first
    }
}

/// The rule, for one origin.
public struct TrustAuthority {
    /// What an origin speaks for without a grant.
    public enum Scope {
        /// Every name (the user).
        case everything
        /// The lookups its own hosts point at: hostname, name and aliases at the host's port
        /// (a bundle).
        case hosts([HostLookupName])
        /// The tailnet's MagicDNS names and Tailscale's addresses, at port 22.
        case tailnet(TailscaleTailnet)
    }

    /// An entry as the rule sees it: one name of a known_hosts line.
    public struct Target {
        /// The pattern as written (a hashed name's `|1|…` text, or a literal without port).
        let pattern: String
        /// The port of a literal name; 0 for a pattern or a hashed name.
        let port: Int
        let hashed: HashedHostName?
        /// True for a literal name (no wildcard, negation or list).
        let literal: Bool

        public init(pattern: String, port: Int, hashed: HashedHostName?, literal: Bool) {
            self.pattern = pattern
            self.port = port
            self.hashed = hashed
            self.literal = literal
        }

        /// A literal name at a port.
        public init(_ lookup: HostLookupName) {
            self.init(pattern: lookup.host, port: lookup.port, hashed: nil, literal: true)
        }
    }

    /// HMACs one plan may spend matching hashed lines against an origin's names (a hashed
    /// line has its own salt, so it is tested on each name: lines × names, bounded here).
    public static let hashedMatchBudget = 1_000_000

    public let origin: TrustOrigin
    let scope: Scope
    /// Patterns the user granted this origin beyond its own hosts (`bundle trust NAME
    /// --ca-scope`): an entry may name one of them exactly, or a literal name one matches.
    let granted: Set<String>
    let claims: TrustClaims
    /// The entries another origin holds that decide for a lookup (the caller's: the store's
    /// rows, or a planner's view of them).
    let trustHeld: (HostLookupName) throws -> [KnownHostRow]
    private let ownList: [HostLookupName]
    private let ownSet: Set<HostLookupName>
    private var budget = TrustAuthority.hashedMatchBudget

    public init(origin: TrustOrigin, scope: Scope, granted: Set<String> = [], claims: TrustClaims,
                trustHeld: @escaping (HostLookupName) throws -> [KnownHostRow]) {
        self.origin = origin
        self.scope = origin == .user ? .everything : scope
        self.granted = granted
        self.claims = claims
        self.trustHeld = trustHeld
        if case .hosts(let own) = scope {
            var seen: Set<HostLookupName> = []
            ownList = own.filter { seen.insert($0).inserted }
            ownSet = seen
        } else {
            ownList = []
            ownSet = []
        }
    }

    /// The authority of a writer that has no hosts of its own to speak for — an approval,
    /// a replacement, a revocation, a known_hosts import — by the `source` it stores: only
    /// the user's writes through one (throws `.rejected` for any other origin).
    public static func requireDirect(source: String) throws {
        guard TrustOrigin(source: source) == .user else {
            throw HostStoreError(.rejected, "trust from '\(PrintableText.quoted(source))' is written only through its own plan (a bundle, a Tailscale import)")
        }
    }

    /// Whether a host-key rotation (origin `.rotation`) may follow the trust `entries` hold
    /// for one name and port, the entries the server's proof is measured against: only trust
    /// the user holds (their approvals and imports, or an earlier rotation of theirs). An
    /// entry of a bundle or of a Tailscale import is that origin's to restate, so the rotation
    /// leaves it (`.trustedByAnotherOrigin`, nothing written).
    public static func rotationRefusal(entries: [KnownHostRow]) -> TrustRefusal? {
        for row in entries {
            let origin = TrustOrigin(source: row.source)
            guard origin != .user, origin != .rotation else { continue }
            return TrustRefusal(kind: .trustedByAnotherOrigin(origin: origin, address: row.hostField),
                                reason: "\(origin) holds the trust for \(row.kind == .hashed ? "this name" : row.hostField)")
        }
        return nil
    }

    /// The lookups `hosts` point at and own: hostname, name and aliases at the host's port.
    public static func lookups(of hosts: [(name: String, hostname: String, port: Int, aliases: [String])]) -> [HostLookupName] {
        hosts.flatMap { h in ([h.hostname, h.name] + h.aliases).map { HostLookupName(host: $0, port: h.port) } }
    }

    // MARK: Entries

    /// Whether the origin may write an entry (of any kind: plain, hashed, `@cert-authority`,
    /// `@revoked`) for `targets`, the names of one line: nil when it may, else the reason
    /// of the first name it may not speak for (`.trustedByAnotherOrigin` only when that is
    /// all that stands against it, after every name was checked). `matched` gets the
    /// lookups a hashed name was found to be.
    public mutating func refusal(_ targets: [Target], matched: inout [HostLookupName]) throws -> TrustRefusal? {
        if origin == .user { return nil }
        var trusted: TrustRefusal?
        for t in targets {
            // A granted pattern is the user's word for every name it matches; a literal name
            // within a grant is checked as one of the origin's own (another origin's host or
            // trust still stands against it).
            if !t.literal, t.hashed == nil, granted.contains(t.pattern) { continue }
            let lookups: [HostLookupName]
            if t.literal && t.port != 0 {
                let lookup = HostLookupName(host: t.pattern, port: t.port)
                if let refused = outside(lookup), !isGranted(t) { return refused }
                lookups = [lookup]
            } else if let hashed = t.hashed {
                let candidates: [HostLookupName]
                switch scope {
                case .everything: candidates = []
                case .hosts: candidates = ownList
                case .tailnet: candidates = []
                }
                budget -= candidates.count
                guard budget >= 0 else {
                    return TrustRefusal(kind: .tooManyHashed, reason: "too many hashed names to check against \(ownWords)")
                }
                lookups = candidates.filter { hashed.matches($0.text) }
                guard !lookups.isEmpty else { return TrustRefusal(kind: .notItsHost, reason: notItsHostReason) }
                matched += lookups
            } else {
                return TrustRefusal(kind: .widerPattern, reason: "a pattern wider than \(ownWords), which you did not grant")
            }
            for lookup in lookups {
                guard let refused = try overlap(lookup) else { continue }
                guard case .trustedByAnotherOrigin = refused.kind else { return refused }
                if trusted == nil { trusted = refused }
            }
        }
        return trusted
    }

    /// True when the user granted `t`: its pattern exactly, or, for a literal name, a
    /// granted pattern matching it as ssh matches `[host]:port` (HostPatternList).
    private func isGranted(_ t: Target) -> Bool {
        if granted.contains(t.pattern) { return true }
        guard t.literal, t.hashed == nil, t.port != 0, !granted.isEmpty else { return false }
        let name = HostLookupName(host: t.pattern, port: t.port).text
        return granted.contains { HostPatternList.match(name: name, patterns: $0) == .matched }
    }

    /// Why `pattern` may not be a scope granted to an origin beyond its own hosts (`bundle
    /// trust --ca-scope`) or published for a certificate authority (`bundle export
    /// --ca-scope`); nil when it may. One host pattern as ssh matches it: no list (`,`), no
    /// negation (`!`), no white space or control character, and a literal part besides
    /// `*`, `?` and `.` (never a bare `*`: a scope of every host is no scope).
    public static func scopeProblem(_ pattern: String) -> String? {
        if pattern.isEmpty { return "the pattern is empty" }
        if pattern.utf8.count >= HostPatternList.maxSubpatternLength { return "the pattern is longer than \(HostPatternList.maxSubpatternLength - 1) bytes" }
        if pattern.unicodeScalars.contains(where: { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "a pattern holds no space or control character"
        }
        if pattern.contains(",") { return "one pattern per option: a pattern holds no ','" }
        if pattern.contains("!") { return "a scope grants names: a pattern holds no '!'" }
        if pattern.allSatisfy({ $0 == "*" || $0 == "?" || $0 == "." }) {
            return "'\(pattern)' matches every host; name a domain, as in '*.corp.example'"
        }
        return nil
    }

    /// `refusal` for one literal name at a port.
    public mutating func refusal(_ lookup: HostLookupName) throws -> TrustRefusal? {
        var matched: [HostLookupName] = []
        return try refusal([Target(lookup)], matched: &matched)
    }

    /// `refusal` for a caller whose `trustHeld` cannot fail (a planner's rows in memory).
    mutating func refusalIgnoringErrors(_ lookup: HostLookupName) -> TrustRefusal? {
        (try? refusal(lookup)) ?? nil
    }

    private var ownWords: String {
        switch origin {
        case .tailscale: "the tailnet's names"
        case .bundle: "the bundle's hosts"
        default: "its own hosts"
        }
    }

    /// The reason a name outside a bundle's hosts is refused (reports compare it).
    public static let notBundleHostReason = "not one of the bundle's hosts"

    private var notItsHostReason: String {
        if case .bundle = origin { return Self.notBundleHostReason }
        return "not one of \(ownWords)"
    }

    /// Refused when `lookup` is outside what the origin speaks for.
    private func outside(_ lookup: HostLookupName) -> TrustRefusal? {
        switch scope {
        case .everything:
            return nil
        case .hosts:
            return ownSet.contains(lookup) ? nil : TrustRefusal(kind: .notItsHost, reason: notItsHostReason)
        case .tailnet(let tailnet):
            guard lookup.port == HostLookupName.defaultPort else { return TrustRefusal(kind: .notItsHost, reason: notItsHostReason) }
            return tailnet.whyNotTrusted(lookup.host).map { TrustRefusal(kind: .notItsHost, reason: $0) }
        }
    }

    /// Whether a Tailscale document may speak for `name` (port 22) at all: a MagicDNS name
    /// of the tailnet or a Tailscale address (what a planner needs to look up).
    static func tailnetSpeaks(for name: String, _ tailnet: TailscaleTailnet) -> Bool {
        tailnet.whyNotTrusted(name) == nil
    }

    /// Refused when a host or the trust of another origin covers `lookup`.
    private func overlap(_ lookup: HostLookupName) throws -> TrustRefusal? {
        if let other = claims.otherHost(covering: lookup, besides: origin) {
            let whose = other.origin == .user ? "your host '\(PrintableText.quoted(other.name))'"
                : "host '\(PrintableText.quoted(other.name))' from \(other.origin)"
            let address = HostLookupName(host: lookup.host, port: other.port).text
            return TrustRefusal(kind: .hostOfAnotherOrigin(host: other.name, origin: other.origin, address: address),
                                reason: "\(PrintableText.quoted(address)) is the address of \(whose)")
        }
        // Trust: a key or a CA (a revocation alone trusts nothing).
        let held = try trustHeld(lookup).filter { $0.marker != .revoked }.map { TrustOrigin(source: $0.source) }.filter { $0 != origin }
        if let holder = held.first(where: { $0 == .user }) ?? held.first {
            let who = holder == .user ? "you trust a key for" : "\(holder) holds trust for"
            return TrustRefusal(kind: .trustedByAnotherOrigin(origin: holder, address: lookup.text),
                                reason: "\(who) \(PrintableText.quoted(lookup.text))")
        }
        return nil
    }

    // MARK: Host names

    /// Whether a host of `origin` may be named `name`: nil, or the reason it may not (a
    /// name ssh resolves on this machine by itself). The user may name a host anything.
    public static func nameRefusal(_ name: String, origin: TrustOrigin, localNames: LocalHostNames) -> TrustRefusal? {
        guard origin != .user, localNames.contains(name) else { return nil }
        return TrustRefusal(kind: .localName(name),
                            reason: "'\(PrintableText.quoted(name))' is a name this machine resolves itself (localhost, /etc/hosts or its own hostname)")
    }
}
