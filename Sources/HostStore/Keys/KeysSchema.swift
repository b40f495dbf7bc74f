// Key metadata: public material only; the private key lives in the vault (schema v1).

enum KeysSchema {
    static let v1 = """
    CREATE TABLE keys (
        id          INTEGER PRIMARY KEY,
        uuid        TEXT NOT NULL UNIQUE,
        name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
        algorithm   TEXT NOT NULL,
        bits        INTEGER NOT NULL,
        fingerprint TEXT NOT NULL UNIQUE,
        public_key  BLOB NOT NULL,
        comment     TEXT NOT NULL DEFAULT '',
        format      TEXT NOT NULL,
        created_at  TEXT NOT NULL
    );

    """
}
