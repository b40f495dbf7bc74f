// Key metadata: public material only; the private key lives in the vault (schema v1).
// Version 5 adds how the agents may use a key (`hostbook keys edit`):
//   confirm        1: every signature with the key asks the user first (AgentApprovals)
//   grant_seconds  how long an approval covers the same key, destination and program; 0: none

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

    static let v5Approval = """
    ALTER TABLE keys ADD COLUMN confirm INTEGER NOT NULL DEFAULT 0 CHECK (confirm IN (0, 1));
    ALTER TABLE keys ADD COLUMN grant_seconds INTEGER NOT NULL DEFAULT 0 CHECK (grant_seconds >= 0);

    """
}
