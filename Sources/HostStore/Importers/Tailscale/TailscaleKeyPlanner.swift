// What a Tailscale import does with one device key for one name: a pure decision over the
// name's current known_hosts rows, made by HostKeyPolicy like every other
// (docs/openssh-behaviour.md, "Host-key decisions"). The importer applies the step through the
// known-hosts store's bulk writer.
import ImportFormats
import KeyFormats

enum TailscaleKeyStep: Equatable {
    case alreadyTrusted, revoked, new
    /// Another key is trusted for the name from `source` (not Tailscale): left to the user.
    case conflict(source: String, fingerprint: String)
    /// known_hosts rows that the last import wrote for this key type, and their fingerprint.
    case rotated([Int64], String)
}

enum TailscaleKeyPlanner {
    /// What to do with `key` for a name whose entries are `entries`. Revoked overrides all;
    /// a key no entry holds, for a name with entries of any type, is a change. A change is
    /// applied only when every entry it is about was written by an earlier Tailscale import
    /// (Tailscale's device list then is the authority that rotated it); an entry from any
    /// other source is a conflict left to `known-hosts approve --replace`.
    static func decide(_ key: PublicKey, _ entries: [KnownHostRow]) -> TailscaleKeyStep {
        let decision = HostKeyPolicy.decide(.plain(key), records: entries.map(\.record), hostName: "", now: 0)
        switch decision.status {
        case .trusted: return .alreadyTrusted
        case .revoked: return .revoked
        case .unknown: return .new
        case .changed:
            let stored = decision.entries.map { entries[$0] }
            if let foreign = stored.first(where: { $0.source != TailscaleImporter.source }) {
                return .conflict(source: foreign.source, fingerprint: foreign.fingerprint)
            }
            let sameType = stored.filter { $0.keyType == key.type }
            guard let last = sameType.last else { return .new }
            return .rotated(sameType.map(\.id), last.fingerprint)
        }
    }
}
