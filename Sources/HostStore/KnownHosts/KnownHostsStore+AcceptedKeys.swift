// The plain host keys the trust core accepts for one name, settled in one decision: each
// stored unmarked key of the name (or of its bare name, as `knownKeyTypes` answers) put to
// the same rule `check` applies, so a key also revoked (an `@revoked` line, a pattern's, a
// revocation list's) is not among them. What `hostbook ssh` plans with: its session's
// KnownHostsCommand script answers these keys, and its agent signs for them.
public import KeyFormats

extension KnownHostsStore {
    /// The accepted plain keys for `lookup`, each once, in the store's order. Empty when a
    /// certificate authority covers the name: a certificate is decided when it is presented.
    public func acceptedPlainKeys(_ lookup: HostLookupName, now: UInt64 = StoreClock.nowSeconds()) throws -> [PublicKey] {
        HostKeyDecisions.count()
        let known = try knownKeyTypes(lookup)
        guard !known.certificateAuthority else { return [] }
        var accepted: [PublicKey] = []
        for row in known.entries {
            guard let key = try? PublicKey(blob: row.keyBlob), !accepted.contains(where: { $0.blob == key.blob }) else { continue }
            let decided = try check(lookup, presented: .plain(key), now: now, ignoring: { _ in false })
            if decided.decision.status == .trusted, !decided.decision.viaCertificateAuthority { accepted.append(key) }
        }
        return accepted
    }
}
