// The known-hosts store: OpenSSH's trust decisions (docs/openssh-behaviour.md, "Host-key
// decisions") over the `known_hosts` table, and every decision written to `host_key_events`.
import KeyFormats

/// Trusted host keys in the hostbook database.
///
/// Lookup design (measured in benchmarks/README.md, "known-hosts"). A check needs every entry
/// whose host field matches one lookup string (docs/formats.md, "Lookup names"), and the three
/// kinds of host field need three different searches, so each kind is stored where its search
/// is cheap:
///
/// * **Plain names** (nearly all entries: what hostbook writes, what Tailscale imports,
///   unhashed files) are one row per name, with the port in its own column. Lookup is one
///   B-tree probe of `known_hosts_name (pattern COLLATE NOCASE, port)`: ASCII-case-
///   insensitive exactly like ssh's lower-casing, O(log n) at a million entries. The index
///   holds only rows with a port (schema v4): hashed names and pattern lists (port 0) are
///   found the ways below, never by name.
/// * **Pattern lists** (`*`, `?`, `!`, or several names with a negation, which must stay
///   together because one `!` voids the whole line) are few. They sit in the partial index
///   `known_hosts_wildcards`, which is scanned whole (pattern + rowid only) and matched
///   with OpenSSH's matcher; only matching rows are then read.
/// * **Hashed names** `|1|salt|mac` cannot be indexed: each has its own salt, so the only
///   test is HMAC-SHA1(salt, lookup) per entry. HMAC-SHA1 is SHA-1 resumed from two states
///   that depend on the salt alone (after the ipad and the opad block), so the import
///   computes both once and writes `known_hosts_hash_pack`: per entry inner state ‖ outer
///   state ‖ mac ‖ row id (68 bytes), 4,096 entries per row. A first check reads those few
///   blobs (no per-entry SQLite row) and tests each entry with two SHA-1 compressions
///   (OpenSSL's SHA1_Transform on a SHA_CTX set to the stored state, both padded blocks
///   made once per check; `HashedNamePack`),
///   half of each blob on each core: ≈ 4–5 ms for 100,000 entries instead of ≈ 50 ms with
///   a re-keyed HMAC per entry. A hit is re-checked against its row. The pack is used only
///   while `pack_generation` equals `hashed_generation` (the import and bundles rebuild it in
///   the transaction that bumps the generation); hashed rows written since by anyone else
///   (ids above `packed_through`, through the partial index `known_hosts_hashed_ids`) are
///   tested one by one. Otherwise every hashed row's pattern is decoded and tested through
///   one re-keyed OpenSSL HMAC context (`HashedNameMatcher`); schema v7 keeps no decoded copy.
///   A check remembers nothing (schema v3): it only reads, so no name it was asked about
///   is ever written down — the point of hashed known_hosts files. Names hostbook itself
///   learns (approve, scan) are stored plain; `export --hashed` hashes them on the way
///   out, as `ssh-keygen -H` would.
///
/// At a million entries a check is still a handful of B-tree probes (name index, the
/// small wildcard index, the hash pack) plus process start-up; the table is
/// never scanned. A large import into an empty store drops the indexes and builds them
/// once at the end (sorting beats a million random index inserts), inside the import's
/// transaction.
///
/// Entries are returned in rowid order, which is file order for imports and approval
/// order otherwise — OpenSSH's "file order".
public final class KnownHostsStore {
    public let database: HostDatabase
    var connection: SQLiteConnection { database.connection }

    public init(database: HostDatabase) {
        self.database = database
    }

    // MARK: Reading

    /// Every entry whose host field matches `lookup`, in rowid order. Only reads: a check
    /// writes nothing and keeps no trace of the names it was asked about.
    public func entries(matching lookup: HostLookupName) throws -> [KnownHostRow] {
        var rows: [Int64: KnownHostRow] = [:]
        let plain = try connection.prepare(KnownHostsSQL.plainAtPort)
        try plain.bind([.text(lookup.host), .int(Int64(lookup.port))])
        while try plain.step() {
            let row = KnownHostRow(statement: plain)
            if row.kind == .plain && row.matches(lookup) { rows[row.id] = row }
        }
        var ids: [Int64] = []
        // Pattern lists: a small set, scanned whole from their partial index.
        let wild = try connection.prepare(KnownHostsSQL.wildcards)
        let name = Array(lookup.text.utf8)
        while try wild.step() {
            guard case .int(let id) = wild.column(0), case .text(let pattern) = wild.column(1) else { continue }
            guard KnownHostRow.kind(of: pattern) == .patterns else { continue }
            if HostPatternList.match(name: name, patterns: Array(pattern.utf8)) == .matched { ids.append(id) }
        }
        ids += try hashedMatches(lookup)
        if !ids.isEmpty {
            let s = try connection.prepare(KnownHostsSQL.byIDs(ids))
            while try s.step() { let row = KnownHostRow(statement: s); rows[row.id] = row }
        }
        return rows.values.sorted { $0.id < $1.id }
    }

    /// Row ids of hashed entries that are the hash of `lookup.text`: every hashed entry is
    /// tested, from the midstate pack when it is current, otherwise through the `hashed`
    /// column. Nothing is remembered: a result that named the lookup would undo what hashed
    /// known_hosts files exist for.
    func hashedMatches(_ lookup: HostLookupName) throws -> [Int64] {
        let generation = try connection.query(KnownHostsSQL.hashedGeneration).first?.int(0) ?? -1
        return try scanPack(lookup, generation: generation) ?? (try scanHashed(lookup.text))
    }

    /// Tests every hashed entry against `lookup` from known_hosts_hash_pack (two SHA-1
    /// compressions each, both cores); nil when the pack is not current. Hits are re-checked
    /// against their rows (a deleted row's id may have been reused); rows written since
    /// without `hashed` are tested as on every check.
    func scanPack(_ lookup: HostLookupName, generation: Int64) throws -> [Int64]? {
        guard generation >= 0,
              try connection.query(KnownHostsSQL.packGeneration).first?.int(0) == generation
        else { return nil }
        let name = lookup.text
        let chunks = try connection.prepare(KnownHostsSQL.packChunks)
        var candidates: [Int64] = []
        while try chunks.step() {
            candidates += chunks.withBlob(at: 0) { HashedNamePack.matches(name: name, in: $0, threads: 2) }
        }
        var ids: [Int64] = []
        for id in candidates {
            guard let field = try connection.query(KnownHostsSQL.patternOfID, [.int(id)]).first?.text(0),
                  let hashed = HashedHostName(field: field), HashedNamePack.matches(hashed, name: name) else { continue }
            ids.append(id)
        }
        // Hashed rows others wrote since the pack was built (a rowid range, normally empty).
        for row in try connection.query(KnownHostsSQL.unpacked) {
            if let id = row.int(0), let field = row.text(1), let h = HashedHostName(field: field), HashedNamePack.matches(h, name: name) {
                ids.append(id)
            }
        }
        return Set(ids).sorted()
    }

    /// Tests every hashed entry against `name` while the pack is not current (one
    /// HMAC-SHA1 each, salt and mac decoded from the pattern: schema v7 keeps no copy).
    func scanHashed(_ name: String) throws -> [Int64] {
        let matcher = HashedNameMatcher(lookup: name)
        let rows = try connection.prepare(KnownHostsSQL.hashedInOrder)
        var ids: [Int64] = []
        while try rows.step() {
            if let id = rows.int(at: 0), let field = rows.text(at: 1), let h = HashedHostName(field: field), matcher.matches(h) { ids.append(id) }
        }
        return ids
    }

    /// The result of checking one presented key.
    public struct Check: Sendable {
        public let lookup: HostLookupName
        public let decision: HostKeyDecision
        /// The entries the decision is about (`decision.entries` resolved to rows).
        public let entries: [KnownHostRow]
        /// Every entry that matched the name the decision was made for.
        public let matched: [KnownHostRow]
        /// True when `[host]:port` was unknown and the bare host name decided (sshconnect.c
        /// check_host_key, "checking without port identifier").
        public let viaBareName: Bool
        /// The source (`bundle:NAME`) of the key revocation list that revoked the key, when
        /// one did (KnownHostsStore+RevocationLists); the status is then `.revoked`.
        public var revocationList: String? = nil

        /// The answer for a store that does not exist yet.
        public static func nothingKnown(_ lookup: HostLookupName) -> Check {
            Check(lookup: lookup, decision: HostKeyDecision(status: .unknown, entries: []), entries: [], matched: [], viaBareName: false)
        }
    }

    /// Decides for `presented` at `lookup`, with OpenSSH's fallback to the bare name when
    /// `[host]:port` is unknown: the bare name's answer is taken when it trusts the key
    /// (as ssh 9.2 does) or revokes it (a revoked key is never offered for approval).
    /// One decision (HostKeyDecisions counts it).
    public func check(_ lookup: HostLookupName, presented: PresentedHostKey, now: UInt64 = StoreClock.nowSeconds()) throws -> Check {
        HostKeyDecisions.count()
        return try check(lookup, presented: presented, now: now, ignoring: { _ in false })
    }

    /// `check` as if the entries `ignoring` picks were not stored (a bundle's own entries,
    /// which the bundle being applied restates: KnownHostsStore+Bundles).
    func check(_ lookup: HostLookupName, presented: PresentedHostKey, now: UInt64, ignoring: (KnownHostRow) -> Bool) throws -> Check {
        let rows = try entries(matching: lookup).filter { !ignoring($0) }
        if let source = try revokingList(presented) {
            return Check(lookup: lookup, decision: HostKeyDecision(status: .revoked, entries: []), entries: [], matched: rows,
                         viaBareName: false, revocationList: source)
        }
        let decision = HostKeyPolicy.decide(presented, records: rows.map(\.record), hostName: lookup.host, now: now)
        if decision.status == .unknown, let bare = lookup.bare {
            let bareRows = try entries(matching: bare).filter { !ignoring($0) }
            let d = HostKeyPolicy.decide(presented, records: bareRows.map(\.record), hostName: bare.host, now: now)
            if d.status == .trusted || d.status == .revoked {
                return Check(lookup: lookup, decision: d, entries: d.entries.map { bareRows[$0] }, matched: bareRows, viaBareName: true)
            }
        }
        return Check(lookup: lookup, decision: decision, entries: decision.entries.map { rows[$0] }, matched: rows, viaBareName: false)
    }

    /// All entries in rowid order.
    public func all() throws -> [KnownHostRow] {
        let s = try connection.prepare(KnownHostsSQL.all)
        var rows: [KnownHostRow] = []
        while try s.step() { rows.append(KnownHostRow(statement: s)) }
        return rows
    }

    /// Entries for `host` as `list HOST` shows them: plain entries for the name at any
    /// port, and every entry (pattern, hashed, marker) that matches the name at port 22.
    public func entries(forHost host: String) throws -> [KnownHostRow] {
        var rows: [Int64: KnownHostRow] = [:]
        let s = try connection.prepare(KnownHostsSQL.byName)
        try s.bind([.text(host)])
        while try s.step() { let r = KnownHostRow(statement: s); if r.kind == .plain { rows[r.id] = r } }
        for r in try entries(matching: HostLookupName(host: host)) { rows[r.id] = r }
        return rows.values.sorted { $0.id < $1.id }
    }

    /// The entries `check` consults for `lookup`: those matching `[host]:port` and, for a
    /// port other than 22, those matching the bare name (ssh's fallback), in rowid order.
    public func entries(consultedFor lookup: HostLookupName) throws -> [KnownHostRow] {
        var rows: [Int64: KnownHostRow] = [:]
        for r in try entries(matching: lookup) { rows[r.id] = r }
        if let bare = lookup.bare { for r in try entries(matching: bare) { rows[r.id] = r } }
        return rows.values.sorted { $0.id < $1.id }
    }

    /// Host fields of unmarked entries that hold the key with `fingerprint`, other than
    /// those for `lookup` (the approval prompt shows them, like ssh's "also known as").
    /// A table scan, deliberately: it runs only before a human answers a prompt, and an
    /// index on fingerprints (random order) would slow every bulk writer of the table.
    public func otherNames(trusting fingerprint: String, excluding lookup: HostLookupName) throws -> [String] {
        let s = try connection.prepare(KnownHostsSQL.unmarkedByFingerprint)
        try s.bind([.text(fingerprint)])
        var names: [String] = []
        while try s.step() {
            let r = KnownHostRow(statement: s)
            if r.matches(lookup) { continue }
            let name = r.kind == .hashed ? "(a hashed name)" : r.hostField
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The audit events for `host` (any port), oldest first. A scan of the events (for
    /// `list HOST` only), for the same reason as `otherNames`.
    public func events(forHost host: String) throws -> [HostKeyEvent] {
        let s = try connection.prepare(KnownHostsSQL.eventsForHost)
        try s.bind([.text(HostPatternList.lowercased(host))])
        return try Self.readEvents(s)
    }

    // MARK: Writing (each public write is one transaction)

    /// Records a decision that changes nothing else (e.g. `rejected`).
    public func record(_ kind: HostKeyEvent.Kind, lookup: HostLookupName, key: PublicKey?, oldFingerprint: String? = nil, source: String) throws {
        try connection.transaction {
            try insertEvent(kind, host: lookup.host, port: lookup.port, key: key, oldFingerprint: oldFingerprint, source: source,
                            at: StoreClock.timestamp())
        }
    }

    /// Trusts `key` for `lookup`, an unknown key. The decision is made again inside the
    /// write transaction (BEGIN IMMEDIATE): when another process stored a key for the name
    /// since the caller decided, nothing is written and `.changedMeanwhile` is thrown.
    /// Returns false when the key is trusted already (nothing written but the event).
    /// `alongside` are keys the same operation trusted for this name just before (a scan
    /// approving a new host's several keys): entries holding only those do not count as a
    /// change.
    @discardableResult
    public func approve(_ lookup: HostLookupName, key: PublicKey, source: String, alongside: [PublicKey] = []) throws -> Bool {
        try TrustAuthority.requireDirect(source: source)
        return try connection.transaction(immediate: true) {
            let current = try check(lookup, presented: .plain(key))
            let ours = Set(alongside.map(\.blob))
            switch current.decision.status {
            case .unknown: break
            case .changed where !current.viaBareName && !ours.isEmpty
                && current.entries.allSatisfy({ !$0.record.isCertificate && ours.contains($0.record.keyBlob) }): break
            case .trusted where !current.viaBareName:
                try insertEvent(.approved, host: lookup.host, port: lookup.port, key: key, oldFingerprint: nil, source: source, at: StoreClock.timestamp())
                return false
            default:
                throw Self.changedMeanwhile(lookup, current)
            }
            let now = StoreClock.timestamp()
            let added = try insertPlain(lookup, key: key, marker: .none, source: source, now: now)
            try insertEvent(.approved, host: lookup.host, port: lookup.port, key: key, oldFingerprint: nil, source: source, at: now)
            return added
        }
    }

    /// Replaces a changed key: removes every unmarked entry that matches `lookup` (whole
    /// entries, like `ssh-keygen -R`: a pattern entry that also covered other hosts goes
    /// too) and trusts `key`. `expected` are the ids of the entries the caller showed as
    /// the stored keys: the decision is made again inside the write transaction, and
    /// anything else than CHANGED over exactly those entries throws `.changedMeanwhile`.
    /// Returns the removed entries.
    @discardableResult
    public func replace(_ lookup: HostLookupName, with key: PublicKey, expected: [Int64]? = nil, source: String) throws -> [KnownHostRow] {
        try TrustAuthority.requireDirect(source: source)
        return try connection.transaction(immediate: true) {
            let current = try check(lookup, presented: .plain(key))
            guard current.decision.status == .changed, expected.map({ Set($0) == Set(current.entries.map(\.id)) }) ?? true else {
                throw Self.changedMeanwhile(lookup, current)
            }
            let now = StoreClock.timestamp()
            let old = try entries(matching: lookup).filter { $0.marker == .none }
            for row in old { try deleteEntry(row.id) }
            try insertPlain(lookup, key: key, marker: .none, source: source, now: now)
            let oldFingerprints = old.map(\.fingerprint).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            try insertEvent(.replaced, host: lookup.host, port: lookup.port, key: key,
                            oldFingerprint: oldFingerprints.isEmpty ? nil : oldFingerprints.joined(separator: ","), source: source, at: now)
            return old
        }
    }

    static func changedMeanwhile(_ lookup: HostLookupName, _ current: Check) -> HostStoreError {
        HostStoreError(.changedMeanwhile,
                       "the stored keys for '\(PrintableText.quoted(lookup.text))' changed while you decided (now: \(current.decision.status.rawValue)); nothing was written",
                       hint: "Run the command again to see the new state.")
    }

    /// Adds an `@revoked` entry for `key` at `lookup`. Returns false when it already existed.
    @discardableResult
    public func revoke(_ lookup: HostLookupName, key: PublicKey, source: String) throws -> Bool {
        try TrustAuthority.requireDirect(source: source)
        return try connection.transaction {
            let now = StoreClock.timestamp()
            let added = try insertPlain(lookup, key: key, marker: .revoked, source: source, now: now)
            try insertEvent(.revoked, host: lookup.host, port: lookup.port, key: key, oldFingerprint: nil, source: source, at: now)
            return added
        }
    }

    /// Removes every unmarked entry matching `lookup` (like `ssh-keygen -R`; `@revoked`
    /// and `@cert-authority` entries stay). Returns the removed entries.
    public func remove(_ lookup: HostLookupName, source: String) throws -> [KnownHostRow] {
        try connection.transaction {
            let now = StoreClock.timestamp()
            let rows = try entries(matching: lookup).filter { $0.marker == .none }
            for row in rows {
                try deleteEntry(row.id)
                try connection.run(KnownHostsSQL.insertEvent, [.text(now), .text(HostKeyEvent.Kind.removed.rawValue), .text(lookup.host),
                                                               .int(Int64(lookup.port)), .text(row.keyType), .null, .text(row.fingerprint), .text(source)])
            }
            return rows
        }
    }

    // MARK: Internals

    /// Deletes entry `id`; an imported entry's derived event is stored first, where it
    /// stood in the history (KnownHostsSQL.keepImportedEvent).
    func deleteEntry(_ id: Int64) throws {
        try connection.run(KnownHostsSQL.keepImportedEvent, [.int(id)])
        try connection.run(KnownHostsSQL.deleteByID, [.int(id)])
    }

    @discardableResult
    func insertPlain(_ lookup: HostLookupName, key: PublicKey, marker: KnownHostsLine.Marker, source: String, now: String) throws -> Bool {
        // Only a plain name is ever stored from a lookup: `*` on port 2222 would be a pattern.
        if let why = HostNameRule.problem(lookup.host) {
            throw HostStoreError(.rejected, "'\(PrintableText.quoted(lookup.host))' is not a host name: \(why)")
        }
        let exists = try connection.query(KnownHostsSQL.plainExists, [.text(lookup.host), .int(Int64(lookup.port)), .text(marker.rawValue), .blob(key.blob)])
        if !exists.isEmpty { return false }
        try connection.run(KnownHostsSQL.insertPlain, [.text(lookup.host), .int(Int64(lookup.port)), .text(marker.rawValue), .text(key.type), .blob(key.blob),
                  .text(key.sha256Fingerprint), .text(source), .text(now), .text(now)])
        return true
    }

    func insertEvent(_ kind: HostKeyEvent.Kind, host: String, port: Int, key: PublicKey?, oldFingerprint: String?, source: String, at: String) throws {
        try connection.run(KnownHostsSQL.insertEvent, [.text(at), .text(kind.rawValue), .text(host), .int(Int64(port)),
                  key.map { .text($0.type) } ?? .null, key.map { .text($0.sha256Fingerprint) } ?? .null,
                  oldFingerprint.map { .text($0) } ?? .null, .text(source)])
    }

    /// Audit events from a statement over `KnownHostsSQL.eventColumns`.
    static func readEvents(_ s: Statement) throws -> [HostKeyEvent] {
        var events: [HostKeyEvent] = []
        while try s.step() {
            func text(_ i: Int32) -> String? { if case .text(let t) = s.column(i) { return t }; return nil }
            var port = 0
            if case .int(let p) = s.column(3) { port = Int(p) }
            events.append(HostKeyEvent(at: text(0) ?? "", event: text(1) ?? "", host: text(2) ?? "", port: port,
                                       keyType: text(4), fingerprint: text(5), oldFingerprint: text(6), source: text(7) ?? ""))
        }
        return events
    }
}
