// Host-key rotation in the store (HostKeyRotation has the rules): which entries ssh is
// given for a connection, the per-host switch (`known-hosts rotation --off`/`--on`, table
// known_hosts_rotation_off), and the one write that takes what ssh learned — in one
// transaction that decides again over the store as it is then, with source `rotation` on
// every entry and event (TrustOrigin.rotation).
import KeyFormats

extension KnownHostsStore {
    /// What the rules say for `lookup` now: the entries ssh is given, or why not.
    public func rotationStart(_ lookup: HostLookupName) throws -> HostKeyRotation.Start {
        HostKeyRotation.start(matched: try entries(matching: lookup), turnedOff: try rotationTurnedOff(lookup))
    }

    /// True when the user turned rotation off for `lookup` (host name and port).
    public func rotationTurnedOff(_ lookup: HostLookupName) throws -> Bool {
        !(try connection.query(KnownHostsSQL.rotationOff, [.text(lookup.host), .int(Int64(lookup.port))])).isEmpty
    }

    /// Turns rotation on or off for `lookup`. Returns false when it already was so.
    @discardableResult
    public func setRotation(_ lookup: HostLookupName, on: Bool) throws -> Bool {
        try connection.transaction {
            let off = try rotationTurnedOff(lookup)
            guard off == on else { return false }
            try connection.run(on ? KnownHostsSQL.deleteRotationOff : KnownHostsSQL.insertRotationOff,
                               [.text(lookup.host), .int(Int64(lookup.port))])
            return true
        }
    }

    /// Takes what ssh learned for `lookup`: `baseline` are the entries ssh was given
    /// (`rotationStart`), `proven` the keys its file held for the name afterwards
    /// (HostKeyRotation.provenKeys). Decided again inside the write transaction; every
    /// change is an event (`learned`, `retired`) with source `rotation`. A new key keeps the
    /// form of the name's entries: hashed (a fresh salt from `salt`) when all of them are.
    public func learnRotation(_ lookup: HostLookupName, baseline: [KnownHostRow], proven: [PublicKey],
                              salt: () -> [UInt8]) throws -> HostKeyRotation.Outcome {
        try connection.transaction(immediate: true) {
            let now = try rotationStart(lookup)
            var others: Set<[UInt8]> = []
            if Set(baseline.map(\.keyBlob)) != Set(proven.map(\.blob)) {
                for key in proven.map(\.blob) + baseline.map(\.keyBlob) {
                    guard let k = try? PublicKey(blob: key) else { continue }
                    if try !otherNames(trusting: k.sha256Fingerprint, excluding: lookup).isEmpty { others.insert(key) }
                }
            }
            let outcome = HostKeyRotation.fold(baseline: baseline, now: now, proven: proven, otherNames: others)
            guard case .learned(let added, let retired) = outcome else { return outcome }
            let at = StoreClock.timestamp()
            let hashed = HostKeyRotation.hashesNewEntries(baseline)
            for key in added {
                if hashed {
                    let field = HashedHostName(hashing: lookup.text, salt: salt()).text
                    try connection.run(KnownHostsSQL.insertPlain, [.text(field), .int(0), .text(""), .text(key.type), .blob(key.blob),
                                                                   .text(key.sha256Fingerprint), .text(HostKeyRotation.source), .text(at), .text(at)])
                    try insertEvent(.learned, host: field, port: 0, key: key, oldFingerprint: nil, source: HostKeyRotation.source, at: at)
                } else {
                    try insertPlain(lookup, key: key, marker: .none, source: HostKeyRotation.source, now: at)
                    try insertEvent(.learned, host: lookup.host, port: lookup.port, key: key, oldFingerprint: nil, source: HostKeyRotation.source, at: at)
                }
            }
            for row in retired {
                try deleteEntry(row.id)
                // A hashed entry's event keeps its hashed name, never the name it stands for.
                let host = row.kind == .hashed ? row.pattern : lookup.host, port = row.kind == .hashed ? 0 : lookup.port
                try connection.run(KnownHostsSQL.insertEvent, [.text(at), .text(HostKeyEvent.Kind.retired.rawValue), .text(host), .int(Int64(port)),
                                                               .text(row.keyType), .null, .text(row.fingerprint), .text(HostKeyRotation.source)])
            }
            return outcome
        }
    }
}
