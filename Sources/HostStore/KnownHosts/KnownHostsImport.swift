// Importing an OpenSSH known_hosts file (ssh-formats.md §5.2): plain, pattern, hashed and
// marker lines. A bad line is reported with its number and skipped; everything else is
// imported in one transaction (a database failure imports nothing).
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
    /// One stored entry derived from a line: the host field split per §5.3 so that each
    /// plain name can be found by index.
    struct ImportedName {
        let pattern: String
        let port: Int
        let hashed: [UInt8]?
        let plain: Bool
    }

    /// Same name, port, marker and key (the SHA-256 fingerprint stands for the key: it is
    /// already computed and hashes far faster than the blob).
    struct ImportIdentity: Hashable {
        let pattern: String
        let port: Int
        let marker: String
        let fingerprint: String
    }

    /// Splits a line's host field. A hashed field is one name. A list with a negation
    /// stays whole (a `!` voids the whole line); otherwise each name is its own entry —
    /// a wildcard one kept as a pattern, `[host]:port` split into name and port.
    static func names(of hosts: String) throws -> [ImportedName] {
        // The common case first: one lower-case plain name.
        if !hosts.utf8.contains(where: { c in
            c == UInt8(ascii: ",") || c == UInt8(ascii: "*") || c == UInt8(ascii: "?") || c == UInt8(ascii: "!")
                || c == UInt8(ascii: "[") || c == UInt8(ascii: "|") || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
        }) {
            return [ImportedName(pattern: hosts, port: HostLookupName.defaultPort, hashed: nil, plain: true)]
        }
        if HashedHostName.looksHashed(hosts) {
            guard let h = HashedHostName(field: hosts) else { throw KeyFormatError.invalid("bad host hash (expected |1|salt|hash with a 20-byte salt)") }
            return [ImportedName(pattern: hosts, port: 0, hashed: h.salt + h.mac, plain: false)]
        }
        if hosts.utf8.contains(UInt8(ascii: "!")) {
            return [ImportedName(pattern: hosts, port: 0, hashed: nil, plain: false)]
        }
        var out: [ImportedName] = []
        for part in hosts.split(separator: ",", omittingEmptySubsequences: true) {
            let name = String(part)
            if HostPatternList.hasWildcards(name) {
                out.append(ImportedName(pattern: name, port: 0, hashed: nil, plain: false))
            } else if let bracketed = HostLookupName.parseBracketed(name) {
                out.append(ImportedName(pattern: bracketed.host, port: bracketed.port, hashed: nil, plain: true))
            } else {
                out.append(ImportedName(pattern: HostPatternList.lowercased(name), port: HostLookupName.defaultPort, hashed: nil, plain: true))
            }
        }
        guard !out.isEmpty else { throw KeyFormatError.invalid("no host names") }
        return out
    }

    /// A string as an SQL literal ('' doubles a quote).
    static func sqlLiteral(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
    }

    /// Imports the lines of a known_hosts file. `progress` is told (lines read, bytes read,
    /// bytes in all) every 4096 lines and once at the end; the caller throttles drawing.
    public func importKnownHosts(_ bytes: [UInt8], source: String = "import",
                                 progress: ((_ lines: Int, _ bytesDone: Int, _ bytesTotal: Int) -> Void)? = nil) throws -> KnownHostsImportReport {
        var report = KnownHostsImportReport()
        // A large file touches every page of the lookup indexes; a 64 MiB page cache (for
        // this connection only) keeps SQLite from re-reading them from the OS per row.
        try connection.execute("PRAGMA cache_size = -65536")
        try connection.transaction {
            let now = StoreClock.timestamp()
            let storeHadRows = !(try connection.query("SELECT 1 FROM known_hosts LIMIT 1")).isEmpty
            // A large file into an empty store: build the indexes once at the end (a sort)
            // instead of inserting into each of them row by row. Inside this transaction, so
            // a failure restores them with everything else.
            let bulk = !storeHadRows && bytes.count >= Self.bulkImportBytes
            if bulk {
                for index in KnownHostsSchema.indexes { try connection.execute("DROP INDEX IF EXISTS \(index.name)") }
            }
            let exists = try connection.prepare("""
                SELECT 1 FROM known_hosts WHERE pattern = ?1 COLLATE NOCASE AND port = ?2 AND marker = ?3 AND key_blob = ?4
                AND (?5 = 1 OR pattern = ?1) LIMIT 1
                """)
            // The values that are the same for every row are SQL literals (bound values cost
            // a copy each); the event is copied from the row just written.
            let constants = "\(Self.sqlLiteral(source)), \(Self.sqlLiteral(now))"
            let insert = try connection.prepare("""
                INSERT INTO known_hosts (pattern, port, marker, key_type, key_blob, fingerprint, hashed, comment, source, first_seen)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, \(constants))
                """)
            let event = try connection.prepare("""
                INSERT INTO host_key_events (at, event, host, port, key_type, fingerprint, source)
                SELECT first_seen, 'imported', pattern, port, key_type, fingerprint, source FROM known_hosts WHERE id = last_insert_rowid()
                """)
            var seen = Set<ImportIdentity>()
            var insertedHashed = false
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
                    entry = try KnownHostsEntry(line: line)
                    names = try Self.names(of: line.hosts)
                } catch let e as KeyFormatError {
                    report.skipped.append(.init(line: lineNumber, reason: e.reason))
                    continue
                }
                let fingerprint = entry.key.sha256Fingerprint
                for n in names {
                    // Duplicates within this file are found in memory; rows stored before
                    // the import only by index, and only when there were any.
                    let identity = ImportIdentity(pattern: n.plain ? HostPatternList.lowercased(n.pattern) : n.pattern, port: n.port,
                                                  marker: entry.marker.rawValue, fingerprint: fingerprint)
                    if !seen.insert(identity).inserted { report.duplicates += 1; continue }
                    if storeHadRows {
                        exists.reset()
                        try exists.bind([.text(n.pattern), .int(Int64(n.port)), .text(entry.marker.rawValue), .blob(entry.key.blob), .int(n.plain ? 1 : 0)])
                        if try exists.step() { report.duplicates += 1; continue }
                    }
                    insert.reset()
                    try insert.bind([.text(n.pattern), .int(Int64(n.port)), .text(entry.marker.rawValue), .text(entry.key.type),
                                     .blob(entry.key.blob), .text(fingerprint), n.hashed.map { .blob($0) } ?? .null,
                                     entry.line.comment.isEmpty ? .null : .text(entry.line.comment)])
                    while try insert.step() {}
                    if n.hashed != nil { insertedHashed = true }
                    event.reset()
                    while try event.step() {}
                    report.imported += 1
                }
            }
            progress?(lineNumber, count, count)
            if bulk {
                for index in KnownHostsSchema.indexes { try connection.execute(index.sql) }
            }
            // New hashed entries void every remembered scan (KnownHostsSchema).
            if insertedHashed {
                try connection.execute("UPDATE known_hosts_state SET hashed_generation = hashed_generation + 1 WHERE id = 1")
                try rebuildHashPack()
            }
        }
        return report
    }

    /// Rewrites known_hosts_hash_pack from every hashed row (decoded from its pattern, so
    /// rows others wrote without `hashed` are in it too) and marks it current. Called in the
    /// transaction that bumped the generation.
    func rebuildHashPack() throws {
        try connection.execute("DELETE FROM known_hosts_hash_pack")
        let rows = try connection.prepare("SELECT id, pattern FROM known_hosts WHERE substr(pattern, 1, 1) = '|' ORDER BY id")
        let insert = try connection.prepare("INSERT INTO known_hosts_hash_pack (chunk, records) VALUES (?, ?)")
        var pack: [UInt8] = []
        var chunk: Int64 = 0
        func flush() throws {
            guard !pack.isEmpty else { return }
            insert.reset()
            try insert.bind([.int(chunk), .blob(pack)])
            while try insert.step() {}
            chunk += 1
            pack.removeAll(keepingCapacity: true)
        }
        pack.reserveCapacity(Self.packChunkRecords * HashedNamePack.recordLength)
        while try rows.step() {
            guard let id = rows.int(at: 0), let field = rows.text(at: 1), let hashed = HashedHostName(field: field) else { continue }
            HashedNamePack.append(hashed, id: id, to: &pack)
            if pack.count >= Self.packChunkRecords * HashedNamePack.recordLength { try flush() }
        }
        try flush()
        try connection.execute("UPDATE known_hosts_state SET pack_generation = hashed_generation WHERE id = 1")
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
