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

extension KeysSchema {
    /// Version 5: the SSHSIG namespaces a key is restricted to (KeyNamespaces; no row: not
    /// restricted), and the email a key signs git commits as (GitSigningKeys).
    static let v5GitSigning = """
    CREATE TABLE key_namespaces (
        key_id    INTEGER NOT NULL REFERENCES keys(id) ON DELETE CASCADE,
        namespace TEXT NOT NULL,
        PRIMARY KEY (key_id, namespace)
    );
    CREATE TABLE key_git_identities (
        key_id INTEGER PRIMARY KEY REFERENCES keys(id) ON DELETE CASCADE,
        email  TEXT NOT NULL
    );

    """
}
