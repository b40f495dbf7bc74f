// Key metadata: public material only; the private key lives in the vault (schema v1).
// Version 5 adds how the agents may use a key (`hostbook keys edit`):
//   confirm        1: every signature with the key asks the user first (AgentApprovals)
//   grant_seconds  how long an approval covers the same key, destination and program; 0: none
// Version 12 adds where the private half lives and what a security key asks before it signs:
//   location   KeyLocation's raw value: vault, security-key, token, upstream (sk-* keys
//              stored before v12 become security-key, every other key vault)
//   sk_flags   an sk key's enrolment flags (SecurityKeyFlags), when known; NULL otherwise

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

extension KeysSchema {
    /// Version 12: where each key's private half lives, and an sk key's flags.
    static let v12Location = """
    ALTER TABLE keys ADD COLUMN location TEXT NOT NULL DEFAULT 'vault'
        CHECK (location IN ('vault', 'security-key', 'token', 'upstream'));
    ALTER TABLE keys ADD COLUMN sk_flags INTEGER CHECK (sk_flags IS NULL OR sk_flags BETWEEN 0 AND 255);
    UPDATE keys SET location = 'security-key'
        WHERE algorithm IN ('sk-ssh-ed25519@openssh.com', 'sk-ecdsa-sha2-nistp256@openssh.com');

    """
}
