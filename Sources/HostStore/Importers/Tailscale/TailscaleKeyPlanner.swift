// What a Tailscale import does with one device key for one name: a pure decision over the
// name's current known_hosts rows, made by HostKeyPolicy like every other
// (docs/openssh-behaviour.md, "Host-key decisions"). The importer applies the step through the
// known-hosts store's bulk writer.
//
// A device may list thousands of keys for a name that already holds thousands of entries
// (input an attacker sizes, issue 22): the rows are read once per name into
// HostKeyRecordIndex and the summaries below, so each key costs a few hash lookups, not a
// pass over every entry.
import ImportFormats
import KeyFormats

enum TailscaleKeyStep: Equatable {
    case alreadyTrusted, revoked, new
    /// Another key is trusted for the name from `source` (not Tailscale): left to the user.
    case conflict(source: String, fingerprint: String)
    /// known_hosts rows that the last import wrote for this key type, and their fingerprint.
    case rotated([Int64], String)
}

struct TailscaleKeyPlanner {
    let entries: [KnownHostRow]
    private let index: HostKeyRecordIndex
    /// The first unmarked entry from another source than Tailscale (a change is then a
    /// conflict).
    private let foreign: KnownHostRow?
    /// Per key type, the ids of the unmarked entries of that type in order (a change
    /// replaces them) and the fingerprint of the last.
    private let unmarkedByType: [String: (ids: [Int64], lastFingerprint: String)]
    /// Work done: entries read when preparing plus one per decision (a test counts it).
    private(set) var work = 0

    /// Prepares decisions for a name whose entries are `entries`.
    init(_ entries: [KnownHostRow]) {
        self.entries = entries
        index = HostKeyRecordIndex(entries.map(\.record))
        var foreign: KnownHostRow?
        var byType: [String: (ids: [Int64], lastFingerprint: String)] = [:]
        for i in index.unmarked {
            let row = entries[i]
            if foreign == nil && row.source != TailscaleImporter.source { foreign = row }
            byType[row.keyType, default: ([], "")].ids.append(row.id)
            byType[row.keyType]!.lastFingerprint = row.fingerprint
        }
        self.foreign = foreign
        unmarkedByType = byType
        work = entries.count
    }

    /// What to do with `key`. Revoked overrides all; a key no entry holds, for a name with
    /// entries of any type, is a change. A change is applied only when every entry it is
    /// about was written by an earlier Tailscale import (Tailscale's device list then is the
    /// authority that rotated it); an entry from any other source is a conflict left to
    /// `known-hosts approve --replace`.
    mutating func decide(_ key: PublicKey) -> TailscaleKeyStep {
        work += 1
        let decision = index.decidePlain(key)
        switch decision.status {
        case .trusted: return .alreadyTrusted
        case .revoked: return .revoked
        case .unknown: return .new
        case .changed:
            // `decision.entries` is every unmarked entry (HostKeyRecordIndex), summarised at init.
            if let foreign { return .conflict(source: foreign.source, fingerprint: foreign.fingerprint) }
            guard let sameType = unmarkedByType[key.type] else { return .new }
            return .rotated(sameType.ids, sameType.lastFingerprint)
        }
    }

    /// One decision (tests and single keys).
    static func decide(_ key: PublicKey, _ entries: [KnownHostRow]) -> TailscaleKeyStep {
        var planner = TailscaleKeyPlanner(entries)
        return planner.decide(key)
    }
}
