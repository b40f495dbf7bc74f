// A key's OpenSSH certificate (schema v8): public data, so it lives in the database beside
// the key (KeyCertificates). One per key; it goes with its key (ON DELETE CASCADE).
//
// key_certificates
//   key_id       the certified key (keys.id)
//   certificate  the whole certificate blob (PROTOCOL.certkeys), as `-cert.pub` holds it in base64
//   comment      the comment of the `-cert.pub` line ('' when it had none)
//   added_at     UTC, ISO 8601, when it was attached

extension KeysSchema {
    static let v8Certificates = """
    CREATE TABLE key_certificates (
        key_id      INTEGER PRIMARY KEY REFERENCES keys(id) ON DELETE CASCADE,
        certificate BLOB NOT NULL,
        comment     TEXT NOT NULL DEFAULT '',
        added_at    TEXT NOT NULL
    );

    """
}
