// The host keys of a team bundle, through the trust core: which entries a bundle line
// stands for, whether the store already holds them, and whether a key the bundle brings
// disagrees with one the user trusts (HostKeyPolicy's CHANGED: reported, never written).
// The rows a bundle writes have the source `bundle:NAME`, so an update removes only those.
import KeyFormats

extension KnownHostsStore {
    /// One entry a bundle line stands for (a line with several names is several entries,
    /// split as the import splits them: KnownHostsHostField.names).
    struct BundleEntry {
        let line: String
        let entry: KnownHostsEntry
        let pattern: String
        let port: Int
        let hashed: HashedHostName?
        let plain: Bool

        var marker: KnownHostsLine.Marker { entry.marker }
    }

    /// What the store makes of one bundle entry.
    enum BundleEntryVerdict: Equatable {
        /// Stored already: by this bundle (`owned`) or by someone else (left alone).
        case stored(id: Int64, owned: Bool)
        /// The key is trusted for that name already by another entry (a pattern, a CA).
        case trustedElsewhere
        /// To be written.
        case add
        /// Disagrees with what the user trusts for `lookup`: not written.
        case changed(lookup: String, trusted: [String])
    }

    /// The stored hashed and pattern-list entries (port 0) by identity, read once per plan:
    /// the name index leaves them out (schema v4).
    struct WholeEntries {
        var rows: [WholeIdentity: [(id: Int64, source: String)]] = [:]
    }

    func wholeEntries() throws -> WholeEntries {
        var out = WholeEntries()
        let s = try connection.prepare(KnownHostsSQL.wholeEntryRows)
        while try s.step() {
            guard let id = s.int(at: 0), let pattern = s.text(at: 1), let marker = s.text(at: 2), case .blob(let blob) = s.column(3) else { continue }
            out.rows[WholeIdentity(pattern: pattern, marker: marker, blob: blob), default: []].append((id, s.text(at: 4) ?? ""))
        }
        return out
    }

    /// The entries of a bundle's host-key line.
    static func bundleEntries(of line: String) throws -> [BundleEntry] {
        guard let entry = try KnownHostsEntry.parse(line) else { throw KeyFormatError.invalid("not a known_hosts entry") }
        return try names(of: entry.line.hosts).map {
            BundleEntry(line: line, entry: entry, pattern: $0.pattern, port: $0.port, hashed: $0.hashed, plain: $0.plain)
        }
    }

    /// The entries bundle `source` brought, in row order.
    func rows(source: String) throws -> [KnownHostRow] {
        let s = try connection.prepare(KnownHostsSQL.bySource)
        try s.bind([.text(source)])
        var rows: [KnownHostRow] = []
        while try s.step() { rows.append(KnownHostRow(statement: s)) }
        return rows
    }

    /// The verdict on `e` for bundle `source`. Only an unmarked plain key can be CHANGED:
    /// for a plain name it is checked at that name; for a hashed name at each of
    /// `candidates` (the bundle's own names it hashes) the field matches. The bundle's own entries are left out of
    /// the check: the bundle being applied restates them.
    func verdict(_ e: BundleEntry, source: String, whole: inout WholeEntries?, candidates: () throws -> [HostLookupName],
                 now: UInt64) throws -> BundleEntryVerdict {
        var stored: [(id: Int64, source: String)] = []
        if e.port == 0 {
            if whole == nil { whole = try wholeEntries() }
            stored = whole?.rows[WholeIdentity(pattern: e.pattern, marker: e.marker.rawValue, blob: e.entry.storedBlob)] ?? []
        } else {
            let s = try connection.prepare(KnownHostsSQL.sameEntry)
            try s.bind([.text(e.pattern), .int(Int64(e.port)), .text(e.marker.rawValue), .blob(e.entry.storedBlob), .int(e.plain ? 1 : 0)])
            while try s.step() {
                let row = KnownHostRow(statement: s)
                stored.append((row.id, row.source))
            }
        }
        if let own = stored.first(where: { $0.source == source }) { return .stored(id: own.id, owned: true) }
        if let other = stored.first { return .stored(id: other.id, owned: false) }
        guard e.marker == .none, e.entry.certificate == nil else { return .add }
        let lookups: [HostLookupName]
        if e.plain && e.port != 0 {
            lookups = [HostLookupName(host: HostPatternList.lowercased(e.pattern), port: e.port)]
        } else {
            let line = e.entry.line
            lookups = try candidates().filter { line.matches(lookup: $0.text) }
        }
        var trustedElsewhere = false
        for lookup in lookups {
            let check = try self.check(lookup, presented: .plain(e.entry.key), now: now, ignoring: { $0.source == source })
            switch check.decision.status {
            case .unknown: continue
            case .trusted: trustedElsewhere = true
            case .changed, .revoked:
                var trusted: [String] = []
                for row in check.entries where !trusted.contains(row.fingerprint) { trusted.append(row.fingerprint) }
                return .changed(lookup: lookup.text, trusted: trusted)
            }
        }
        return trustedElsewhere && e.plain && e.port != 0 ? .trustedElsewhere : .add
    }

    /// Writes `e` for bundle `source` (its audit event: approved, or revoked for `@revoked`).
    func insertBundleEntry(_ e: BundleEntry, source: String, now: String) throws {
        if e.plain && e.port != 0, let why = HostNameRule.problem(e.pattern) {
            throw HostStoreError(.rejected, "'\(PrintableText.quoted(e.pattern))' is not a host name: \(why)")
        }
        try connection.run(KnownHostsSQL.insertFromBundle, [
            .text(e.pattern), .int(Int64(e.port)), .text(e.marker.rawValue), .text(e.entry.storedType), .blob(e.entry.storedBlob),
            .text(e.entry.key.sha256Fingerprint), .text(source), .text(now), .text(now)])
        try insertEvent(e.marker == .revoked ? .revoked : .approved, host: e.pattern, port: e.port, key: e.entry.key,
                        oldFingerprint: nil, source: source, at: now)
    }

    /// Deletes an entry bundle `source` brought (its audit event: removed).
    func deleteBundleEntry(_ row: KnownHostRow, source: String, now: String) throws {
        try deleteEntry(row.id)
        try connection.run(KnownHostsSQL.insertEvent, [.text(now), .text(HostKeyEvent.Kind.removed.rawValue), .text(row.pattern),
                                                       .int(Int64(row.port)), .text(row.keyType), .null, .text(row.fingerprint), .text(source)])
    }

    /// After hashed entries were written: the midstate pack is rebuilt (as the import does).
    func refreshHashPackAfterBundle() throws {
        try connection.execute(KnownHostsSQL.bumpHashedGeneration)
        try rebuildHashPack()
    }

    /// A stored entry as a known_hosts line (no comment), as bundles carry it.
    static func line(of row: KnownHostRow) -> String {
        KnownHostsLine(marker: row.marker, hosts: row.hostField, keyType: row.keyType, keyBase64: Base64.encode(row.keyBlob), comment: "").text
    }
}
