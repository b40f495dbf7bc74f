// Importing an OpenSSH known_hosts file (docs/formats.md, "Line grammar"): plain, pattern,
// hashed and marker lines. A bad line is reported with its number and skipped; everything else
// is imported in one transaction (a database failure imports nothing).
import KeyFormats

public struct KnownHostsImportReport: Sendable, Equatable {
    public struct BadLine: Sendable, Equatable {
        public let line: Int
        public let reason: String

        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    /// Entries written (a line with several plain names gives one entry per name).
    public var imported = 0
    /// Entries that were already in the store (same name, port, marker and key).
    public var duplicates = 0
    public var skipped: [BadLine] = []

    public init(imported: Int = 0, duplicates: Int = 0, skipped: [BadLine] = []) {
        self.imported = imported
        self.duplicates = duplicates
        self.skipped = skipped
    }
}

extension KnownHostsStore {
    /// One stored entry derived from a line (KnownHostsHostField.Name as the rows store it).
    struct ImportedName {
        let pattern: String
        let port: Int
        let hashed: HashedHostName?
        let plain: Bool
    }

    /// Same name, port, marker and key (the plain key's blob: a certificate stands for its
    /// embedded key, as its fingerprint does; no fingerprint is computed for a line that
    /// holds no certificate): the rows this import wrote,
    /// by a 64-bit hash of that identity. A hash seen before is only a candidate: the row
    /// it names is read back and compared field by field, and rows whose different
    /// identities share a hash are all kept, so the answer is exactly a set's. It holds no
    /// strings: a `Set` of 200,000 identities cost about a tenth of a large import in
    /// allocation, reference counting and freeing.
    struct WrittenIdentities {
        /// Hash → row id × 2 + (1 for a plain name), for the first row with that hash.
        var first: [UInt64: Int64] = [:]
        /// Further rows whose hash an earlier row already had (almost never any).
        var more: [UInt64: [Int64]] = [:]

        init(capacity: Int) { first.reserveCapacity(capacity) }

        static func hash(pattern: String, port: Int, marker: String, key: [UInt8]) -> UInt64 {
            var h = Hasher()
            var pattern = pattern, marker = marker
            pattern.withUTF8 { h.combine(bytes: UnsafeRawBufferPointer($0)) }
            h.combine(UInt8(0xff))  // not a byte of UTF-8 text: ends the pattern
            h.combine(port)
            marker.withUTF8 { h.combine(bytes: UnsafeRawBufferPointer($0)) }
            h.combine(UInt8(0xff))
            key.withUnsafeBytes { h.combine(bytes: $0) }
            return UInt64(bitPattern: Int64(h.finalize()))
        }

        /// Candidates for `hash` (row id × 2 + plain bit).
        func candidates(_ hash: UInt64) -> [Int64] {
            guard let f = first[hash] else { return [] }
            return [f] + (more[hash] ?? [])
        }

        mutating func insert(_ hash: UInt64, id: Int64, plain: Bool) {
            let value = id * 2 + (plain ? 1 : 0)
            if first[hash] == nil { first[hash] = value } else { more[hash, default: []].append(value) }
        }
    }

    /// A stored hashed or pattern-list entry (port 0) as the duplicate test compares it:
    /// the exact pattern, marker and blob. The name index leaves these rows out (schema v4),
    /// so an import into a store that holds some reads them once into a set.
    struct WholeIdentity: Hashable {
        let pattern: String
        let marker: String
        let blob: [UInt8]
    }

    /// The stored entries of a line's host field (KnownHostsHostField: split only where
    /// that matches exactly what the whole field matches).
    static func names(of hosts: String) throws -> [ImportedName] {
        try KnownHostsHostField.names(of: hosts).map {
            ImportedName(pattern: $0.pattern, port: $0.port, hashed: $0.hashed, plain: $0.plain)
        }
    }

    /// Imports the lines of a known_hosts file. `progress` is told (lines read, bytes read,
    /// bytes in all) every 4096 lines and once at the end; the caller throttles drawing.
    public func importKnownHosts(_ bytes: [UInt8], source: String = "import",
                                 progress: ((_ lines: Int, _ bytesDone: Int, _ bytesTotal: Int) -> Void)? = nil) throws -> KnownHostsImportReport {
        // The user's own act: every entry of the file is theirs to write (TrustAuthority).
        try TrustAuthority.requireDirect(source: source)
        var report = KnownHostsImportReport()
        // A large file touches every page of the lookup indexes, and the events are copied
        // from the rows at the end: a page cache (for this connection only) that holds what
        // the import writes (about 4 × the file) keeps SQLite from spilling pages to the WAL
        // and reading them back. At least 64 MiB, at most 128 MiB; SQLite takes the memory
        // only as pages are used (the 28 MB hashed file: 185 MB resident instead of 144).
        let cacheKiB = min(max(bytes.count / 1024 * 4, 65536), 131072)
        try connection.execute("PRAGMA cache_size = -\(cacheKiB)")
        // A large file into a store without entries writes nearly every byte of the store:
        // through the WAL that is each byte twice (the log, then the checkpoint). SQLite's
        // rollback journal for this one transaction writes the new pages once (pages past
        // the old end of the file need no journal) and keeps the all-or-nothing commit.
        // The switch needs the only connection to the file: when another process has it
        // open, the import stays in WAL mode. WAL is set again after (and on every open).
        let emptyStore = bytes.count >= Self.bulkImportBytes ? try connection.query(KnownHostsSQL.any).isEmpty : false
        let rollbackJournal = emptyStore && (try? connection.query(KnownHostsSQL.rollbackJournal).first?.text(0)?.lowercased()) == "delete"
        defer { if rollbackJournal { _ = try? connection.query(KnownHostsSQL.writeAheadLog) } }
        try connection.transaction {
            let now = StoreClock.timestamp()
            let storeHadRows = !(try connection.query(KnownHostsSQL.any)).isEmpty
            // A large file into an empty store: build the indexes once at the end (a sort)
            // instead of inserting into each of them row by row. Inside this transaction, so
            // a failure restores them with everything else.
            let bulk = !storeHadRows && bytes.count >= Self.bulkImportBytes
            if bulk {
                for index in KnownHostsSchema.indexes { try connection.execute(KnownHostsSQL.dropIndex(index.name)) }
            }
            let exists = try connection.prepare(KnownHostsSQL.importExists)
            var storedWhole = Set<WholeIdentity>()
            if storeHadRows {
                let whole = try connection.prepare(KnownHostsSQL.wholeEntries)
                while try whole.step() {
                    guard let pattern = whole.text(at: 0), let marker = whole.text(at: 1), case .blob(let blob) = whole.column(2) else { continue }
                    storedWhole.insert(WholeIdentity(pattern: pattern, marker: marker, blob: blob))
                }
            }
            // Time and source are stored once, in the import's row (schema v7); each entry
            // names it (an SQL literal: the same for every row), and its `imported` event is
            // derived from the two instead of written.
            try connection.run(KnownHostsSQL.insertImport, [.text(now), .text(source)])
            let importID = connection.lastInsertRowID
            let insert = try connection.prepare(KnownHostsSQL.importInsert(importID: importID))
            // Sized for the file up front (lines are rarely under 64 bytes).
            var written = WrittenIdentities(capacity: min(bytes.count / 64, 1 << 22))
            let writtenRow = try connection.prepare(KnownHostsSQL.importIdentityOfID)
            /// True when the row `candidate` (row id × 2 + plain bit) has this identity. A row
            /// this import wrote stores a fingerprint only for a certificate (its embedded
            /// key's); otherwise its blob is the plain key.
            func same(_ candidate: Int64, pattern: String, port: Int, marker: String, entry: KnownHostsEntry) throws -> Bool {
                writtenRow.reset()
                try writtenRow.bind([.int(candidate >> 1)])
                guard try writtenRow.step(), let stored = writtenRow.text(at: 0), let storedPort = writtenRow.int(at: 1),
                      let storedMarker = writtenRow.text(at: 2), case .blob(let storedBlob) = writtenRow.column(3) else { return false }
                let storedPattern = candidate & 1 == 1 ? HostPatternList.lowercased(stored) : stored
                guard storedPattern == pattern && storedPort == Int64(port) && storedMarker == marker else { return false }
                if let storedFingerprint = writtenRow.text(at: 4) { return storedFingerprint == entry.key.sha256Fingerprint }
                return storedBlob == entry.key.blob
            }
            var insertedHashed = false
            // Into a store with no entries the pack is exactly the hashed rows written here,
            // in row order: their records are made as they are written, from the names
            // already decoded, instead of reading and decoding every row again at the end.
            var pack: [UInt8]? = storeHadRows ? nil : []
            // Room for a hashed file's records up front (68 bytes for a line of at least 140):
            // growing by copies cost a twentieth of a large import. Untouched room costs nothing.
            pack?.reserveCapacity(bytes.count / 2)
            // The previous line's entry, reused for a line with the same key.
            var previous: KnownHostsEntry?
            var lineNumber = 0
            var start = 0
            let count = bytes.count
            while start < count {
                var end = start
                while end < count && bytes[end] != 0x0a { end += 1 }
                lineNumber += 1
                if let progress, lineNumber & 4095 == 0 { progress(lineNumber, end, count) }
                let slice = bytes[start..<end]
                start = end + 1
                let entry: KnownHostsEntry
                let names: [ImportedName]
                do {
                    guard case .entry(let line) = try KnownHostsLine.parse(bytes: slice) else { continue }
                    entry = try KnownHostsEntry(line: line, reusing: previous)
                    names = try Self.names(of: line.hosts)
                } catch let e as KeyFormatError {
                    report.skipped.append(.init(line: lineNumber, reason: e.reason))
                    continue
                }
                previous = entry
                let storedBlob = entry.storedBlob
                // The fingerprint is the stored blob's (NULL: derived) unless the line holds a
                // certificate, whose fingerprint is its embedded key's.
                let storedFingerprint: SQLValue = entry.certificate == nil ? .null : .text(entry.key.sha256Fingerprint)
                for n in names {
                    // Duplicates within this file are found in memory; rows stored before
                    // the import (only when there were any) by the name index, or for
                    // hashed names and lists in the set read at the start.
                    let identityPattern = n.plain ? HostPatternList.lowercased(n.pattern) : n.pattern
                    let marker = entry.marker.rawValue
                    let hash = WrittenIdentities.hash(pattern: identityPattern, port: n.port, marker: marker, key: entry.key.blob)
                    let candidates = written.candidates(hash)
                    if try candidates.contains(where: { try same($0, pattern: identityPattern, port: n.port, marker: marker, entry: entry) }) {
                        report.duplicates += 1; continue
                    }
                    if storeHadRows && n.port == 0 {
                        if storedWhole.contains(WholeIdentity(pattern: n.pattern, marker: entry.marker.rawValue, blob: storedBlob)) {
                            report.duplicates += 1; continue
                        }
                    } else if storeHadRows {
                        exists.reset()
                        try exists.bind([.text(n.pattern), .int(Int64(n.port)), .text(entry.marker.rawValue), .blob(storedBlob), .int(n.plain ? 1 : 0)])
                        if try exists.step() { report.duplicates += 1; continue }
                    }
                    try insert.run(borrowing: [.text(n.pattern), .int(Int64(n.port)), .text(entry.marker.rawValue), .text(entry.storedType),
                                               .blob(storedBlob), storedFingerprint,
                                               entry.line.comment.isEmpty ? .null : .text(entry.line.comment)])
                    written.insert(hash, id: connection.lastInsertRowID, plain: n.plain)
                    if let hashed = n.hashed {
                        insertedHashed = true
                        if pack != nil { HashedNamePack.append(hashed, id: connection.lastInsertRowID, to: &pack!) }
                    }
                    report.imported += 1
                }
            }
            progress?(lineNumber, count, count)
            if report.imported == 0 { try connection.run(KnownHostsSQL.deleteImport, [.int(importID)]) }
            if bulk {
                for index in KnownHostsSchema.indexes { try connection.execute(index.sql) }
            }
            // New hashed entries make the midstate pack stale: it is rebuilt here.
            if insertedHashed {
                try connection.execute(KnownHostsSQL.bumpHashedGeneration)
                if let pack { try writeHashPack(pack) } else { try rebuildHashPack() }
            }
        }
        return report
    }

    /// Rewrites known_hosts_hash_pack from every hashed row (decoded from its pattern, so
    /// rows others wrote without `hashed` are in it too) and marks it current. Called in the
    /// transaction that bumped the generation.
    func rebuildHashPack() throws {
        let rows = try connection.prepare(KnownHostsSQL.hashedInOrder)
        var pack: [UInt8] = []
        while try rows.step() {
            guard let id = rows.int(at: 0), let field = rows.text(at: 1), let hashed = HashedHostName(field: field) else { continue }
            HashedNamePack.append(hashed, id: id, to: &pack)
        }
        try writeHashPack(pack)
    }

    /// Replaces known_hosts_hash_pack with `pack` (the records of every hashed row, in row
    /// order), `packChunkRecords` records per row, and marks it current.
    func writeHashPack(_ pack: [UInt8]) throws {
        try connection.execute(KnownHostsSQL.clearPack)
        let insert = try connection.prepare(KnownHostsSQL.insertPackChunk)
        let chunkBytes = Self.packChunkRecords * HashedNamePack.recordLength
        var chunk: Int64 = 0
        var start = 0
        while start < pack.count {
            let end = min(pack.count, start + chunkBytes)
            insert.reset()
            try insert.bind([.int(chunk), .blob(Array(pack[start..<end]))])
            while try insert.step() {}
            chunk += 1
            start = end
        }
        try connection.execute(KnownHostsSQL.markPackCurrent)
    }

    /// Records per known_hosts_hash_pack row (≈ 280 KB).
    static let packChunkRecords = 4096

    /// From about 10,000 lines on, rebuilding the indexes beats maintaining them.
    static let bulkImportBytes = 1 << 20

    /// The store as a known_hosts file that ssh accepts (UserKnownHostsFile) and
    /// `ssh-keygen -F` reads. With `hashed`, each unmarked plain name is written as a fresh
    /// `|1|salt|hash` (like `ssh-keygen -H`); pattern, hashed and marker entries are copied
    /// as they are. `salt` supplies 20 random bytes per hashed name.
    public func exportKnownHosts(hashed: Bool, salt: () -> [UInt8]) throws -> String {
        var out = ""
        for row in try all() {
            if hashed && row.kind == .plain && row.marker == .none {
                let lookup = HostLookupName(host: row.pattern, port: row.port)
                out += row.line(hostField: HashedHostName(hashing: lookup.text, salt: salt()).text) + "\n"
            } else {
                out += row.line() + "\n"
            }
        }
        return out
    }
}
