// Which host keys are known for a host and port before ssh has seen the server's key: what
// `hostbook ssh` puts first in HostKeyAlgorithms and what the KnownHostsCommand's ORDER run
// prints. The `[host]:port` → bare-name fallback is the rule `check` applies too
// (docs/openssh-behaviour.md, "Host-key decisions"); `hostbook ssh` takes the key types
// from here only.

import KeyFormats

extension KnownHostsStore {
    /// The key types known for a host and port.
    public struct KnownKeyTypes: Sendable, Equatable {
        /// The unmarked entries ssh would consult (those of `[host]:port`, or of the bare name
        /// when `[host]:port` knows no key), in rowid order.
        public let entries: [KnownHostRow]
        /// Their key types, each once, in the order of `entries`.
        public let types: [String]
        /// True when an `@cert-authority` entry covers the name (any key type may be signed).
        public let certificateAuthority: Bool
        /// True when the bare name's entries answered.
        public let viaBareName: Bool
    }

    /// The key types known for `lookup`. When nothing that could trust a key (an unmarked
    /// entry or a certificate authority) matches `[host]:port`, the bare name answers, as it
    /// does in `check` for a key `[host]:port` does not know.
    public func knownKeyTypes(_ lookup: HostLookupName) throws -> KnownKeyTypes {
        var rows = try entries(matching: lookup)
        var viaBare = false
        if let bare = lookup.bare, !rows.contains(where: Self.knowsKeys) {
            rows = try entries(matching: bare)
            viaBare = true
        }
        let unmarked = rows.filter { $0.marker == .none }
        var types: [String] = []
        for row in unmarked where !types.contains(row.keyType) { types.append(row.keyType) }
        return KnownKeyTypes(entries: unmarked, types: types, certificateAuthority: rows.contains { $0.marker == .certAuthority },
                             viaBareName: viaBare)
    }

    /// An entry that can make a presented key trusted (or changed): unmarked, or an authority.
    private static func knowsKeys(_ row: KnownHostRow) -> Bool { row.marker == .none || row.marker == .certAuthority }
}
