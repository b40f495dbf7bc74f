// Every SQL statement over the trust tables (`known_hosts`, `host_key_events`,
// `known_hosts_state`, `known_hosts_hash_pack`). The tables themselves are created in
// KnownHostsSchema; nothing else in hostbook names them in SQL. KnownHostsStore (and its
// bulk writer, for importers) use it, and HostStore's fuzz entry, which empties the tables
// between inputs (emptyForFuzzing).

enum KnownHostsSQL {
    /// True for a pattern-list row: exactly the condition of the partial index
    /// `known_hosts_wildcards` (schema v4), which SQLite uses only for a query that
    /// repeats it word for word.
    static let patternList = "(instr(pattern, '*') OR instr(pattern, '?') OR instr(pattern, '!') OR instr(pattern, ','))"

    // MARK: Entries

    /// Plain entries for one name (ASCII case ignored, like ssh) at one port, through the
    /// `known_hosts_name` index. That index holds only rows with a port (`port != 0`, the
    /// term that lets SQLite use it): hashed names and pattern lists have none.
    static let plainAtPort = "SELECT \(KnownHostRow.columns) FROM known_hosts WHERE pattern = ?1 COLLATE NOCASE AND port = ?2 AND port != 0"
    /// Entries with a port whose pattern equals a name at any port.
    static let byName = "SELECT \(KnownHostRow.columns) FROM known_hosts WHERE pattern = ?1 COLLATE NOCASE AND port != 0"
    /// Pattern-list candidates, from the partial index `known_hosts_wildcards`.
    static let wildcards = "SELECT id, pattern FROM known_hosts WHERE \(patternList)"
    /// Pattern-list and hashed entries whole (the Tailscale import holds these few in memory).
    static let special = "SELECT \(KnownHostRow.columns) FROM known_hosts WHERE \(patternList) OR substr(pattern, 1, 1) = '|'"
    static let all = "SELECT \(KnownHostRow.columns) FROM known_hosts ORDER BY id"
    static let any = "SELECT 1 FROM known_hosts LIMIT 1"
    static let patternOfID = "SELECT pattern FROM known_hosts WHERE id = ?1"
    static let unmarkedByFingerprint = "SELECT \(KnownHostRow.columns) FROM known_hosts WHERE fingerprint = ?1 AND marker = '' ORDER BY id"
    static let deleteByID = "DELETE FROM known_hosts WHERE id = ?"

    // MARK: Saved hosts behind a host key (the standing agent's question)

    /// Any pattern-list or hashed entry that holds a key blob.
    static let specialHoldingKey = "SELECT 1 FROM known_hosts WHERE key_blob = ?1 AND (\(patternList) OR substr(pattern, 1, 1) = '|') LIMIT 1"
    /// Saved hosts whose hostname is the plain name of an entry holding a key blob.
    static let savedHostsNamedByKeyHolders = """
        SELECT DISTINCT h.name, h.hostname, h.port FROM hosts h
        JOIN known_hosts k ON k.pattern = h.hostname COLLATE NOCASE
        WHERE k.key_blob = ?1 AND k.port != 0 ORDER BY h.name COLLATE NOCASE
        """
    static let allSavedHosts = "SELECT name, hostname, port FROM hosts ORDER BY name COLLATE NOCASE"

    /// Rows with these ids (integers only, so the list is safe to inline).
    static func byIDs(_ ids: [Int64]) -> String {
        "SELECT \(KnownHostRow.columns) FROM known_hosts WHERE id IN (\(ids.map(String.init).joined(separator: ",")))"
    }

    /// One plain entry as approve, revoke, replace and the Tailscale import write it.
    static let insertPlain = """
        INSERT INTO known_hosts (pattern, port, marker, key_type, key_blob, fingerprint, source, first_seen, approved_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let plainExists = """
        SELECT 1 FROM known_hosts WHERE pattern = ?1 COLLATE NOCASE AND port = ?2 AND port != 0 AND marker = ?3 AND key_blob = ?4 LIMIT 1
        """

    // MARK: Hashed names

    static let hashedGeneration = "SELECT hashed_generation FROM known_hosts_state WHERE id = 1"
    static let packGeneration = "SELECT pack_generation FROM known_hosts_state WHERE id = 1"
    static let packChunks = "SELECT records FROM known_hosts_hash_pack ORDER BY chunk"
    /// Hashed rows written without `hashed` (a probe of the partial index
    /// `known_hosts_unhashed`, which holds only those).
    static let hashedWithoutColumn = "SELECT id, pattern FROM known_hosts WHERE substr(pattern, 1, 1) = '|' AND hashed IS NULL"
    /// The same, plus rows whose `hashed` is malformed.
    static let hashedUnusable = """
        SELECT id, pattern FROM known_hosts WHERE substr(pattern, 1, 1) = '|' AND (hashed IS NULL OR length(hashed) != 40)
        """
    /// Every salt ‖ mac as one blob (a table scan: only while the pack is stale).
    static let hashedConcatenated = """
        SELECT CAST(group_concat(hashed, '') AS BLOB) FROM known_hosts
        WHERE substr(pattern, 1, 1) = '|' AND length(hashed) = 40
        """
    static let idsOfHashed = "SELECT id FROM known_hosts WHERE hashed = ?1 AND substr(pattern, 1, 1) = '|'"
    static let hashedInOrder = "SELECT id, pattern FROM known_hosts WHERE substr(pattern, 1, 1) = '|' ORDER BY id"
    static let bumpHashedGeneration = "UPDATE known_hosts_state SET hashed_generation = hashed_generation + 1 WHERE id = 1"
    static let clearPack = "DELETE FROM known_hosts_hash_pack"
    static let insertPackChunk = "INSERT INTO known_hosts_hash_pack (chunk, records) VALUES (?, ?)"
    static let markPackCurrent = "UPDATE known_hosts_state SET pack_generation = hashed_generation WHERE id = 1"

    // MARK: File import

    /// An entry with a port already stored (name index); port-0 entries are compared in
    /// memory against `wholeEntries`.
    static let importExists = """
        SELECT 1 FROM known_hosts WHERE pattern = ?1 COLLATE NOCASE AND port = ?2 AND port != 0 AND marker = ?3 AND key_blob = ?4
        AND (?5 = 1 OR pattern = ?1) LIMIT 1
        """
    /// What the import compares to find a line it already wrote (by row id).
    static let importIdentityOfID = "SELECT pattern, port, marker, fingerprint FROM known_hosts WHERE id = ?1"
    /// Hashed and pattern-list entries (port 0) as a duplicate test needs them.
    static let wholeEntries = "SELECT pattern, marker, key_blob FROM known_hosts WHERE port = 0"
    /// `constants` are the SQL literals for source and time, the same for every row.
    static func importInsert(constants: String) -> String {
        """
        INSERT INTO known_hosts (pattern, port, marker, key_type, key_blob, fingerprint, hashed, comment, source, first_seen)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, \(constants))
        """
    }
    /// The highest row id stored (0 for none): every row an import writes is above it.
    static let maxID = "SELECT coalesce(max(id), 0) FROM known_hosts"
    /// The `imported` events of every row written after `?1` (the import's rows), copied
    /// from them in row order: one statement for the whole file instead of one per row.
    /// `OR FAIL` stops at a failing row without undoing the rows before it, so SQLite needs
    /// no statement journal (32 MB of temporary file for 200,000 events); the import's
    /// transaction is rolled back on any error, so nothing is half-written either way.
    static let importEvents = """
        INSERT OR FAIL INTO host_key_events (at, event, host, port, key_type, fingerprint, source)
        SELECT first_seen, 'imported', pattern, port, key_type, fingerprint, source FROM known_hosts WHERE id > ?1 ORDER BY id
        """

    /// A string as an SQL literal ('' doubles a quote).
    static func literal(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
    }

    static func dropIndex(_ name: String) -> String { "DROP INDEX IF EXISTS \(name)" }

    // MARK: Events

    static let eventColumns = "at, event, host, port, key_type, fingerprint, old_fingerprint, source"
    static let insertEvent = "INSERT INTO host_key_events (\(eventColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    static let eventsForHost = "SELECT \(eventColumns) FROM host_key_events WHERE host = ?1 COLLATE NOCASE ORDER BY id"
    static let allEvents = "SELECT \(eventColumns) FROM host_key_events ORDER BY id"

    // MARK: Fuzzing

    /// Empties the store's scratch database between two fuzz inputs.
    static let emptyForFuzzing = ["DELETE FROM known_hosts", "DELETE FROM host_key_events", "DELETE FROM known_hosts_hash_pack"]
}

extension KnownHostsSQL {
    // MARK: Bundles (KnownHostsStore+Bundles)

    /// The entries a bundle brought (its source `bundle:NAME`), from the partial index
    /// `known_hosts_bundle_source` (the `substr` term lets SQLite use it).
    static let bySource = "SELECT \(KnownHostRow.columns) FROM known_hosts WHERE source = ?1 AND substr(source, 1, 7) = 'bundle:' ORDER BY id"
    /// A stored plain-name entry with this identity: name (any case for a plain name,
    /// ?5 = 1), port, marker and blob; `port != 0` lets SQLite use `known_hosts_name`.
    static let sameEntry = """
        SELECT \(KnownHostRow.columns) FROM known_hosts WHERE pattern = ?1 COLLATE NOCASE AND port = ?2 AND port != 0 AND marker = ?3 AND key_blob = ?4
        AND (?5 = 1 OR pattern = ?1) ORDER BY id
        """
    /// Every hashed or pattern-list entry (port 0), read once per plan into a set.
    static let wholeEntryRows = "SELECT id, pattern, marker, key_blob, source FROM known_hosts WHERE port = 0 ORDER BY id"
    /// An entry a bundle brings, trusted (or revoking) from the moment it is written.
    static let insertFromBundle = """
        INSERT INTO known_hosts (pattern, port, marker, key_type, key_blob, fingerprint, hashed, source, first_seen, approved_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
}
