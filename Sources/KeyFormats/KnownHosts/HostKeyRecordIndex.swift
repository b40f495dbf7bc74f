// HostKeyPolicy's decision for a plain key (docs/openssh-behaviour.md, "Host-key decisions",
// steps 1–4; hostfile.c check_hostkeys_by_key_or_type), with the records read once into
// hash tables, so that deciding many keys against the same records (an importer trusting
// thousands of keys for one name) costs one lookup per key instead of a pass over every
// record per key. HostKeyPolicy.decidePlain is this index over its records: one rule, one
// implementation.

public struct HostKeyRecordIndex: Sendable {
    public let records: [HostKeyRecord]
    /// `@revoked` records by key blob, in record order.
    private var revoked: [[UInt8]: [Int]] = [:]
    /// Unmarked records holding a plain key (not a certificate), by key blob, in record order.
    private var holding: [[UInt8]: [Int]] = [:]
    /// Every unmarked record, in record order (certificates included: they count as an
    /// entry for the name).
    public private(set) var unmarked: [Int] = []

    public init(_ records: [HostKeyRecord]) {
        self.records = records
        for (i, r) in records.enumerated() {
            switch r.marker {
            case .revoked: revoked[r.keyBlob, default: []].append(i)
            case .none:
                unmarked.append(i)
                if !r.isCertificate { holding[r.keyBlob, default: []].append(i) }
            case .certAuthority: break
            }
        }
    }

    /// Revoked overrides all; then the unmarked records holding the key (trusted); then
    /// any unmarked record (changed: all of them, the last being ssh's "Offending" one);
    /// else unknown.
    public func decidePlain(_ key: PublicKey) -> HostKeyDecision {
        if let r = revoked[key.blob], !r.isEmpty { return HostKeyDecision(status: .revoked, entries: r) }
        if let h = holding[key.blob], !h.isEmpty { return HostKeyDecision(status: .trusted, entries: h) }
        if !unmarked.isEmpty { return HostKeyDecision(status: .changed, entries: unmarked) }
        return HostKeyDecision(status: .unknown, entries: [])
    }
}
