// Trusted host keys and their audit trail (schema v1).

enum KnownHostsSchema {
    static let v1 = """
    CREATE TABLE known_hosts (
        id          INTEGER PRIMARY KEY,
        pattern     TEXT NOT NULL,
        port        INTEGER NOT NULL DEFAULT 22,
        marker      TEXT NOT NULL DEFAULT '' CHECK (marker IN ('', 'cert-authority', 'revoked')),
        key_type    TEXT NOT NULL,
        key_blob    BLOB NOT NULL,
        fingerprint TEXT NOT NULL,
        source      TEXT NOT NULL,
        first_seen  TEXT NOT NULL,
        approved_at TEXT
    );
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
}
