// Trusted host keys and their audit trail (schema v1). See KnownHostsStore for the lookup
// design these indexes serve.
//
// known_hosts: one row per (name or pattern list or hashed name, port, key).
//   pattern  a plain name (matched without regard to ASCII case, with `port`), or a
//            pattern list holding `*`, `?`, `!` or `,` (port 0: the port is part of what
//            the list matches, `[host]:port`), or a hashed `|1|salt|mac` name (port 0).
//   hashed   for hashed names: salt ‖ mac (40 bytes), so a check scans raw bytes instead
//            of re-decoding base64; NULL otherwise (filled in lazily if another writer
//            leaves it NULL).
//   comment  the comment of an imported line, written back on export.
//   key_type, key_blob  the key or certificate as read (a certificate on an unmarked line
//            is an entry that never holds a plain key; HostKeyRecord re-encodes keys).
//
// known_hosts_hash_pack holds every hashed entry as a HashedNamePack record (HMAC-SHA1
// midstates ‖ mac ‖ row id), 4,096 records per row, so a first check reads a few blobs
// instead of 100,000 index rows. It is complete for the entries that existed when
// known_hosts_state.hashed_generation was pack_generation: the import rebuilds it in the
// transaction that bumps the generation; when the two differ it is not used. A deleted
// row may stay in it (a hit is re-checked against the row itself).
//
// Version 1 also had `learned` (the plaintext lookup a check found for a hashed entry) and
// known_hosts_hash_scans (every name a check had scanned for): a check wrote the names it
// was asked about, which undoes what hashed known_hosts files exist for. Version 3 drops
// both; a check only reads. Rows written by anyone else with a `|1|` pattern and no
// `hashed` are tested on every check.
//
// Version 7 is the compact layout (benchmarks/README.md, "known-hosts", issue 35): a stored
// entry keeps only what cannot be derived.
//   fingerprint  NULL when it is the SHA-256 fingerprint of key_blob (readers compute it
//            with the SQL function hostbook_fingerprint); text only where it differs (a
//            certificate on an unmarked line is fingerprinted by its embedded key).
//   import_id  for an entry a file import wrote: its known_hosts_imports row, which holds
//            the import's time and source once (source and first_seen are NULL), and the
//            entry's `imported` event is derived from the row and that import instead of
//            stored: it sorts right after event `after_event`, entries in row order. Before
//            such a row is deleted its event is copied into host_key_events with the same
//            position (after_event, entry), so the history keeps it.
//   hashed   dropped: salt ‖ mac is decoded from the pattern. Hashed rows not in the pack
//            are those above known_hosts_state.packed_through, found through the partial
//            index known_hosts_hashed_ids (the ids of hashed rows only: a probe, even in a
//            store of plain rows whose pack was never built).

enum KnownHostsSchema {
    /// The indexes this part owns, as the current version defines them: every `CREATE
    /// INDEX` line of v1 (which stays literal SQL for testdata/hoststore/make-v1-fixture.sh),
    /// of v4 and of v6, a later definition replacing an earlier one of the same name, less those
    /// a later version dropped. A bulk import into an empty store drops them and builds
    /// them once at the end (KnownHostsImport).
    static let indexes: [(name: String, sql: String)] = {
        var out: [(name: String, sql: String)] = []
        for line in (v1 + v4 + v6BundleSource + v7).split(separator: "\n") where line.hasPrefix("CREATE INDEX ") {
            let name = String(line.split(separator: " ")[2])
            out.removeAll { $0.name == name }
            out.append((name, String(line)))
        }
        return out.filter { !dropped.contains($0.name) }
    }()

    /// Indexes of v1 that later versions dropped.
    static let dropped: Set<String> = ["known_hosts_learned", "known_hosts_hashed", "known_hosts_unhashed"]

    static let v1 = """
    CREATE TABLE known_hosts (
        id          INTEGER PRIMARY KEY,
        pattern     TEXT NOT NULL,
        port        INTEGER NOT NULL DEFAULT 22,
        -- Written with OR, not IN (...): SQLite builds an ephemeral table per row for IN.
        marker      TEXT NOT NULL DEFAULT '' CHECK (marker = '' OR marker = 'cert-authority' OR marker = 'revoked'),
        key_type    TEXT NOT NULL,
        key_blob    BLOB NOT NULL,
        fingerprint TEXT NOT NULL,
        source      TEXT NOT NULL,
        first_seen  TEXT NOT NULL,
        approved_at TEXT,
        hashed      BLOB,
        comment     TEXT,
        learned     TEXT
    );
    CREATE INDEX known_hosts_name ON known_hosts(pattern COLLATE NOCASE, port);
    CREATE INDEX known_hosts_wildcards ON known_hosts(pattern) WHERE pattern GLOB '*[*?!,]*';
    CREATE INDEX known_hosts_hashed ON known_hosts(hashed) WHERE substr(pattern, 1, 1) = '|';
    CREATE INDEX known_hosts_learned ON known_hosts(learned) WHERE learned IS NOT NULL;
    CREATE TABLE known_hosts_hash_scans (
        lookup     TEXT PRIMARY KEY,
        generation INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE known_hosts_state (
        id                INTEGER PRIMARY KEY CHECK (id = 1),
        hashed_generation INTEGER NOT NULL,
        pack_generation   INTEGER NOT NULL DEFAULT -1
    );
    CREATE TABLE known_hosts_hash_pack (
        chunk   INTEGER PRIMARY KEY,
        records BLOB NOT NULL
    );
    INSERT INTO known_hosts_state (id, hashed_generation) VALUES (1, 0);
    CREATE TABLE host_key_events (
        id              INTEGER PRIMARY KEY,
        at              TEXT NOT NULL,
        event           TEXT NOT NULL,
        host            TEXT NOT NULL,
        port            INTEGER NOT NULL,
        key_type        TEXT,
        fingerprint     TEXT,
        old_fingerprint TEXT,
        source          TEXT NOT NULL
    );

    """

    /// Version 3: checks write nothing (see above).
    static let v3 = """
    DROP INDEX IF EXISTS known_hosts_learned;
    ALTER TABLE known_hosts DROP COLUMN learned;
    DROP TABLE IF EXISTS known_hosts_hash_scans;

    """

    /// Version 4: the indexes hold only the rows their lookups can find (benchmarks/README.md,
    /// "known-hosts", where the bytes go). Rows and columns are unchanged.
    /// * `known_hosts_name` leaves out port-0 rows: hashed names and pattern lists, which
    ///   no name lookup can equal (a hashed name is found through the pack, a list through
    ///   `known_hosts_wildcards`). In a hashed file those are all the rows: 72 bytes each.
    /// * `known_hosts_hashed` (salt ‖ mac of every hashed row, 49 bytes each) served only
    ///   the scan used while the midstate pack is stale, which the import never leaves it;
    ///   that scan now reads the table. `known_hosts_unhashed` keeps the probe every check
    ///   makes for hashed rows someone wrote without `hashed` (normally none).
    /// * `known_hosts_wildcards` holds the same rows as before (a `*`, `?`, `!` or `,` in the
    ///   pattern), tested with four `instr` instead of `GLOB '*[*?!,]*'`: building it over
    ///   200,000 rows took 0.45 s with GLOB, 0.24 s with instr.
    /// * A store without hashed rows gets an empty pack marked current (the fresh state
    ///   was "stale", generation 0 against -1): with `known_hosts_hashed` gone, the
    ///   stale-pack scan reads the whole table, which a plain store must never pay for
    ///   on every check. Stores with hashed rows keep their pack as it was (the import
    ///   always left it current).
    static let v4 = """
    DROP INDEX IF EXISTS known_hosts_name;
    DROP INDEX IF EXISTS known_hosts_hashed;
    CREATE INDEX known_hosts_name ON known_hosts(pattern COLLATE NOCASE, port) WHERE port != 0;
    CREATE INDEX known_hosts_unhashed ON known_hosts(pattern) WHERE substr(pattern, 1, 1) = '|' AND hashed IS NULL;
    DROP INDEX IF EXISTS known_hosts_wildcards;
    CREATE INDEX known_hosts_wildcards ON known_hosts(pattern) WHERE instr(pattern, '*') OR instr(pattern, '?') OR instr(pattern, '!') OR instr(pattern, ',');
    DELETE FROM known_hosts_hash_pack WHERE NOT EXISTS (SELECT 1 FROM known_hosts WHERE substr(pattern, 1, 1) = '|');
    UPDATE known_hosts_state SET pack_generation = hashed_generation
        WHERE NOT EXISTS (SELECT 1 FROM known_hosts WHERE substr(pattern, 1, 1) = '|');

    """

    /// Version 6: the entries a team bundle brought (source `bundle:NAME`) are found by
    /// their source (KnownHostsStore+Bundles); no other row is in this index.
    static let v6BundleSource = """
    CREATE INDEX known_hosts_bundle_source ON known_hosts(source) WHERE substr(source, 1, 7) = 'bundle:';

    """

    /// Version 7: the compact layout (see above). The table is rebuilt (SQLite cannot drop
    /// NOT NULL); ids stay, so the hash pack and every reference stay valid, and from now on
    /// an id is never handed out twice (AUTOINCREMENT): a row above `packed_through` is
    /// exactly a row written after the pack, and an event's `entry` names one row. The pack covers
    /// every hashed row up to the first one written without `hashed` (a row someone else
    /// wrote after the pack was built), which is where `packed_through` is set.
    static let v7 = """
    ALTER TABLE known_hosts_state ADD COLUMN packed_through INTEGER NOT NULL DEFAULT 0;
    UPDATE known_hosts_state SET packed_through = coalesce(
        (SELECT min(id) - 1 FROM known_hosts WHERE substr(pattern, 1, 1) = '|' AND hashed IS NULL),
        (SELECT max(id) FROM known_hosts), 0);
    CREATE TABLE known_hosts_imports (
        id          INTEGER PRIMARY KEY,
        at          TEXT NOT NULL,
        source      TEXT NOT NULL,
        after_event INTEGER NOT NULL
    );
    CREATE TABLE known_hosts_v7 (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        pattern     TEXT NOT NULL,
        port        INTEGER NOT NULL DEFAULT 22,
        marker      TEXT NOT NULL DEFAULT '' CHECK (marker = '' OR marker = 'cert-authority' OR marker = 'revoked'),
        key_type    TEXT NOT NULL,
        key_blob    BLOB NOT NULL,
        import_id   INTEGER,
        comment     TEXT,
        fingerprint TEXT,
        source      TEXT,
        first_seen  TEXT,
        approved_at TEXT,
        CHECK ((import_id IS NULL) = (source IS NOT NULL AND first_seen IS NOT NULL))
    );
    INSERT INTO known_hosts_v7 (id, pattern, port, marker, key_type, key_blob, comment, fingerprint, source, first_seen, approved_at)
        SELECT id, pattern, port, marker, key_type, key_blob, comment, nullif(fingerprint, hostbook_fingerprint(key_blob)), source, first_seen, approved_at
        FROM known_hosts ORDER BY id;
    DROP TABLE known_hosts;
    ALTER TABLE known_hosts_v7 RENAME TO known_hosts;
    CREATE INDEX known_hosts_name ON known_hosts(pattern COLLATE NOCASE, port) WHERE port != 0;
    CREATE INDEX known_hosts_wildcards ON known_hosts(pattern) WHERE instr(pattern, '*') OR instr(pattern, '?') OR instr(pattern, '!') OR instr(pattern, ',');
    CREATE INDEX known_hosts_bundle_source ON known_hosts(source) WHERE substr(source, 1, 7) = 'bundle:';
    CREATE INDEX known_hosts_hashed_ids ON known_hosts(id) WHERE substr(pattern, 1, 1) = '|';
    ALTER TABLE host_key_events ADD COLUMN after_event INTEGER;
    ALTER TABLE host_key_events ADD COLUMN entry INTEGER;

    """
}

extension KnownHostsSchema {
    /// Version 10: the host names and ports whose host-key rotation the user turned off
    /// (`known-hosts rotation --off`; KnownHostsStore+Rotation). A name is stored lower-cased,
    /// as ssh looks it up.
    static let v10Rotation = """
    CREATE TABLE known_hosts_rotation_off (
        host TEXT NOT NULL,
        port INTEGER NOT NULL,
        PRIMARY KEY (host, port)
    ) WITHOUT ROWID;

    """
}

extension KnownHostsSchema {
    /// Version 15: key revocation lists (PROTOCOL.krl) a trust origin brought (a bundle's
    /// CA, `bundle export --ca`), by its source (`bundle:NAME`): a host key or host
    /// certificate one of them revokes is revoked whatever else trusts it
    /// (KnownHostsStore+RevocationLists).
    static let v15RevocationLists = """
    CREATE TABLE known_hosts_revocation_lists (
        source     TEXT PRIMARY KEY COLLATE NOCASE,
        krl        BLOB NOT NULL,
        updated_at TEXT NOT NULL
    );

    """
}
