// One stored known_hosts entry and what kind of host field it holds.
import KeyFormats

public struct KnownHostRow: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// One plain name, matched case-insensitively together with `port`.
        case plain
        /// A pattern list (`*`, `?`, `!`, several names): matched against the lookup string.
        case patterns
        /// One hashed `|1|salt|mac` name: matched by HMAC against the lookup string.
        case hashed
    }

    public let id: Int64
    public let pattern: String
    public let port: Int
    public let marker: KnownHostsLine.Marker
    public let keyType: String
    public let keyBlob: [UInt8]
    public let fingerprint: String
    public let source: String
    public let firstSeen: String
    public let approvedAt: String?
    public let comment: String?

    public var kind: Kind { Self.kind(of: pattern) }

    public static func kind(of pattern: String) -> Kind {
        if HashedHostName.looksHashed(pattern) { return .hashed }
        if pattern.utf8.contains(where: { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "!") || $0 == UInt8(ascii: ",") }) {
            return .patterns
        }
        return .plain
    }

    /// The host field as written in a known_hosts line (`[host]:port` for plain names on
    /// other ports).
    public var hostField: String {
        kind == .plain && port != HostLookupName.defaultPort ? "[\(pattern)]:\(port)" : pattern
    }

    /// The port shown to users: nil when the port is part of a pattern or hidden in a hash.
    public var displayPort: Int? { kind == .plain ? port : nil }

    /// What the decision compares: the key re-encoded canonically (a row written in a
    /// non-canonical form is the same key), a certificate marked as one.
    public var record: HostKeyRecord {
        HostKeyRecord(marker: marker, storedType: keyType, storedBlob: keyBlob)
            ?? HostKeyRecord(marker: marker, keyType: keyType, keyBlob: keyBlob, isCertificate: keyType.hasSuffix("-cert-v01@openssh.com"))
    }

    /// True when this row's host field matches `lookup` (OpenSSH's rules: docs/formats.md,
    /// "Host patterns", "Hashed names").
    public func matches(_ lookup: HostLookupName) -> Bool {
        switch kind {
        case .plain: return port == lookup.port && HostPatternList.lowercased(pattern) == lookup.host
        case .patterns: return HostPatternList.match(name: lookup.text, patterns: pattern) == .matched
        case .hashed: return HashedHostName(field: pattern)?.matches(lookup.text) ?? false
        }
    }

    /// The known_hosts line for this row.
    public func line(hostField field: String? = nil) -> String {
        KnownHostsLine(marker: marker, hosts: field ?? hostField, keyType: keyType,
                       keyBase64: Base64.encode(keyBlob), comment: comment ?? "").text
    }

    /// The columns `init(statement:)` reads; fingerprint, source and first-seen time are
    /// derived where the row does not store them (schema v7, KnownHostsSchema).
    static let columns = "id, pattern, port, marker, key_type, key_blob, \(KnownHostsSQL.fingerprint), \(KnownHostsSQL.source), "
        + "\(KnownHostsSQL.firstSeen), approved_at, comment"

    init(statement s: Statement) {
        func text(_ i: Int32) -> String? { if case .text(let t) = s.column(i) { return t }; return nil }
        func int(_ i: Int32) -> Int64 { if case .int(let n) = s.column(i) { return n }; return 0 }
        id = int(0)
        pattern = text(1) ?? ""
        port = Int(int(2))
        marker = KnownHostsLine.Marker(rawValue: text(3) ?? "") ?? .none
        keyType = text(4) ?? ""
        if case .blob(let b) = s.column(5) { keyBlob = b } else { keyBlob = [] }
        fingerprint = text(6) ?? ""
        source = text(7) ?? ""
        firstSeen = text(8) ?? ""
        approvedAt = text(9)
        comment = text(10)
    }
}
