// Every SQL statement over the trust tables (`known_hosts`, `host_key_events`,
// `known_hosts_state`, `known_hosts_hash_pack`, `known_hosts_imports`, `known_hosts_rotation_off`,
// `known_hosts_revocation_lists`). The tables themselves are created in
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
    static let unmarkedByFingerprint = "SELECT \(KnownHostRow.columns) FROM known_hosts WHERE \(fingerprint) = ?1 AND marker = '' ORDER BY id"
    static let deleteByID = "DELETE FROM known_hosts WHERE id = ?"
    /// Before an imported entry is deleted: its derived `imported` event (schema v7) is
    /// stored, at the position it had (after the import's `after_event`, in row order).
    static let keepImportedEvent = """
        INSERT INTO host_key_events (at, event, host, port, key_type, fingerprint, source, after_event, entry)
        SELECT i.at, 'imported', k.pattern, k.port, k.key_type, coalesce(k.fingerprint, hostbook_fingerprint(k.key_blob)), i.source, i.after_event, k.id
        FROM known_hosts k JOIN known_hosts_imports i ON i.id = k.import_id WHERE k.id = ?1
        """

    // MARK: Derived columns (schema v7)

    /// A row's fingerprint: stored only where it is not the SHA-256 of its blob.
    static let fingerprint = "coalesce(fingerprint, hostbook_fingerprint(key_blob))"
    /// A row's source and first-seen time: an imported row's are its import's.
    static let source = "coalesce(source, (SELECT i.source FROM known_hosts_imports i WHERE i.id = known_hosts.import_id))"
    static let firstSeen = "coalesce(first_seen, (SELECT i.at FROM known_hosts_imports i WHERE i.id = known_hosts.import_id))"

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
        VALUES (?1, ?2, ?3, ?4, ?5, nullif(?6, hostbook_fingerprint(?5)), ?7, ?8, ?9)
        """
    static let plainExists = """
        SELECT 1 FROM known_hosts WHERE pattern = ?1 COLLATE NOCASE AND port = ?2 AND port != 0 AND marker = ?3 AND key_blob = ?4 LIMIT 1
        """

    // MARK: Rotation (known_hosts_rotation_off, schema v10)

    static let rotationOff = "SELECT 1 FROM known_hosts_rotation_off WHERE host = lower(?1) AND port = ?2"
    static let insertRotationOff = "INSERT OR IGNORE INTO known_hosts_rotation_off (host, port) VALUES (lower(?1), ?2)"
    static let deleteRotationOff = "DELETE FROM known_hosts_rotation_off WHERE host = lower(?1) AND port = ?2"

    // MARK: Hashed names

    static let hashedGeneration = "SELECT hashed_generation FROM known_hosts_state WHERE id = 1"
    static let packGeneration = "SELECT pack_generation FROM known_hosts_state WHERE id = 1"
    static let packChunks = "SELECT records FROM known_hosts_hash_pack ORDER BY chunk"
    /// Hashed rows written after the pack was built (by anyone else than the import and
    /// bundles, which rebuild it): the ids above `packed_through` in the partial index
    /// `known_hosts_hashed_ids`, normally none.
    static let unpacked = """
        SELECT id, pattern FROM known_hosts INDEXED BY known_hosts_hashed_ids
        WHERE substr(pattern, 1, 1) = '|' AND id > (SELECT packed_through FROM known_hosts_state WHERE id = 1)
        """
    static let hashedInOrder = "SELECT id, pattern FROM known_hosts WHERE substr(pattern, 1, 1) = '|' ORDER BY id"
    static let bumpHashedGeneration = "UPDATE known_hosts_state SET hashed_generation = hashed_generation + 1 WHERE id = 1"
    static let clearPack = "DELETE FROM known_hosts_hash_pack"
    static let insertPackChunk = "INSERT INTO known_hosts_hash_pack (chunk, records) VALUES (?, ?)"
    static let markPackCurrent = """
        UPDATE known_hosts_state SET pack_generation = hashed_generation, packed_through = (SELECT coalesce(max(id), 0) FROM known_hosts) WHERE id = 1
        """

    // MARK: File import

    /// An entry with a port already stored (name index); port-0 entries are compared in
    /// memory against `wholeEntries`.
    static let importExists = """
        SELECT 1 FROM known_hosts WHERE pattern = ?1 COLLATE NOCASE AND port = ?2 AND port != 0 AND marker = ?3 AND key_blob = ?4
        AND (?5 = 1 OR pattern = ?1) LIMIT 1
        """
    /// What the import compares to find a line it already wrote (by row id).
    static let importIdentityOfID = "SELECT pattern, port, marker, key_blob, fingerprint FROM known_hosts WHERE id = ?1"
    /// The journal of a bulk import into a store without entries, and back (KnownHostsImport).
    static let rollbackJournal = "PRAGMA journal_mode = DELETE"
    static let writeAheadLog = "PRAGMA journal_mode = WAL"
    /// Hashed and pattern-list entries (port 0) as a duplicate test needs them.
    static let wholeEntries = "SELECT pattern, marker, key_blob FROM known_hosts WHERE port = 0"
    /// One entry of a file import: time and source are its import's (`importID`, an
    /// integer literal), the fingerprint NULL where it is the blob's (the caller knows).
    static func importInsert(importID: Int64) -> String {
        """
        INSERT INTO known_hosts (pattern, port, marker, key_type, key_blob, fingerprint, comment, import_id)
        VALUES (?, ?, ?, ?, ?, ?, ?, \(importID))
        """
    }
    /// One file import: its time and source, and the last event before it (its entries'
    /// `imported` events are derived from them and sort right after that event).
    static let insertImport = """
        INSERT INTO known_hosts_imports (at, source, after_event) VALUES (?1, ?2, (SELECT coalesce(max(id), 0) FROM host_key_events))
        """
    static let deleteImport = "DELETE FROM known_hosts_imports WHERE id = ?1"

    /// A string as an SQL literal ('' doubles a quote).
    static func literal(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
    }

    static func dropIndex(_ name: String) -> String { "DROP INDEX IF EXISTS \(name)" }

    // MARK: Events

    static let eventColumns = "at, event, host, port, key_type, fingerprint, old_fingerprint, source"
    static let insertEvent = "INSERT INTO host_key_events (\(eventColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    static let eventsForHost = events(where: "host = ?1 COLLATE NOCASE", derivedWhere: "k.pattern = ?1 COLLATE NOCASE")
    static let allEvents = events(where: "1", derivedWhere: "1")

    /// The stored events and those derived from imported rows (schema v7), in history
    /// order: a stored event at its id, or where `after_event`/`entry` put it (an imported
    /// entry's event kept when the entry was deleted); a derived one after its import's
    /// `after_event`, in row order.
    static func events(where stored: String, derivedWhere derived: String) -> String {
        """
        SELECT at, event, host, port, key_type, fingerprint, old_fingerprint, source,
               coalesce(after_event, id) AS anchor, coalesce(entry, 0) AS rank, id AS tie
        FROM host_key_events WHERE \(stored)
        UNION ALL
        SELECT i.at, 'imported', k.pattern, k.port, k.key_type, coalesce(k.fingerprint, hostbook_fingerprint(k.key_blob)), NULL, i.source,
               i.after_event, k.id, 0
        FROM known_hosts k JOIN known_hosts_imports i ON i.id = k.import_id WHERE \(derived)
        ORDER BY anchor, rank, tie
        """
    }

    // MARK: Fuzzing

    /// Empties the store's scratch database between two fuzz inputs.
    static let emptyForFuzzing = ["DELETE FROM known_hosts", "DELETE FROM host_key_events", "DELETE FROM known_hosts_hash_pack",
                                  "DELETE FROM known_hosts_imports", "DELETE FROM known_hosts_revocation_lists"]
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
        INSERT INTO known_hosts (pattern, port, marker, key_type, key_blob, fingerprint, source, first_seen, approved_at)
        VALUES (?1, ?2, ?3, ?4, ?5, nullif(?6, hostbook_fingerprint(?5)), ?7, ?8, ?9)
        """
}

extension KnownHostsSQL {
    // MARK: Revocation lists (KnownHostsStore+RevocationLists)

    static let revocationLists = "SELECT source, krl FROM known_hosts_revocation_lists ORDER BY source"
    static let revocationListOfSource = "SELECT krl FROM known_hosts_revocation_lists WHERE source = ?1"
    static let setRevocationList = """
        INSERT INTO known_hosts_revocation_lists (source, krl, updated_at) VALUES (?1, ?2, ?3)
        ON CONFLICT(source) DO UPDATE SET krl = ?2, updated_at = ?3
        """
    static let deleteRevocationList = "DELETE FROM known_hosts_revocation_lists WHERE source = ?1"
}
