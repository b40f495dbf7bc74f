// Certificate authorities hostbook holds (`hostbook ca`, schema v9): the CA's public half
// (its private key is a vault item, kind private-key, owner the CA's uuid), the last serial
// it gave, the KRL version; every certificate it signed (the whole certificate, its serial
// and key id, the certified key's fingerprint); and what it revoked (a serial, a plain
// key's blob, or a key id).

enum CertificateAuthoritySchema {
    static let v9 = """
    CREATE TABLE certificate_authorities (
        id          INTEGER PRIMARY KEY,
        uuid        TEXT NOT NULL UNIQUE,
        name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
        algorithm   TEXT NOT NULL,
        fingerprint TEXT NOT NULL UNIQUE,
        public_key  BLOB NOT NULL,
        last_serial INTEGER NOT NULL DEFAULT 0 CHECK (last_serial >= 0),
        krl_version INTEGER NOT NULL DEFAULT 0 CHECK (krl_version >= 0),
        created_at  TEXT NOT NULL
    );
    CREATE TABLE ca_certificates (
        ca_id        INTEGER NOT NULL REFERENCES certificate_authorities(id) ON DELETE CASCADE,
        serial       INTEGER NOT NULL CHECK (serial > 0),
        key_id       TEXT NOT NULL,
        fingerprint  TEXT NOT NULL,
        valid_before INTEGER NOT NULL,
        certificate  BLOB NOT NULL,
        signed_at    TEXT NOT NULL,
        PRIMARY KEY (ca_id, serial)
    );
    CREATE TABLE ca_revocations (
        id         INTEGER PRIMARY KEY,
        ca_id      INTEGER NOT NULL REFERENCES certificate_authorities(id) ON DELETE CASCADE,
        kind       TEXT NOT NULL CHECK (kind IN ('serial', 'key', 'key-id')),
        serial     INTEGER,
        public_key BLOB,
        key_id     TEXT,
        revoked_at TEXT NOT NULL,
        CHECK ((kind = 'serial') = (serial IS NOT NULL)),
        CHECK ((kind = 'key') = (public_key IS NOT NULL)),
        CHECK ((kind = 'key-id') = (key_id IS NOT NULL))
    );
    CREATE UNIQUE INDEX ca_revocations_serial ON ca_revocations(ca_id, serial) WHERE kind = 'serial';
    CREATE UNIQUE INDEX ca_revocations_key ON ca_revocations(ca_id, public_key) WHERE kind = 'key';
    CREATE UNIQUE INDEX ca_revocations_key_id ON ca_revocations(ca_id, key_id) WHERE kind = 'key-id';

    """
}
