// Keys that live on a PKCS#11 token (schema v15): public data only. The private half never
// leaves the token; the PIN is never stored (the agent asks it per session). A token key is
// found again by its token's serial and label and its object's CKA_ID, whatever slot the
// token sits in (TokenKeys).
//
// token_keys
//   name            unique key name (the rule of key names; unique among vault keys too)
//   key_type        SSH type name (ssh-rsa, ecdsa-sha2-nistp256, ssh-ed25519)
//   public_key      the SSH public key blob
//   fingerprint     SHA256:... of the blob, unique
//   module          the PKCS#11 module's absolute path
//   token_label, token_manufacturer, token_model, token_serial
//                   the token's identity (C_GetTokenInfo)
//   object_id       CKA_ID of the key pair
//   object_label    CKA_LABEL of the public key object ('' when none)
//   added_at        UTC, ISO 8601

extension KeysSchema {
    static let v15TokenKeys = """
    CREATE TABLE token_keys (
        id                 INTEGER PRIMARY KEY,
        name               TEXT NOT NULL UNIQUE,
        key_type           TEXT NOT NULL,
        public_key         BLOB NOT NULL,
        fingerprint        TEXT NOT NULL UNIQUE,
        module             TEXT NOT NULL,
        token_label        TEXT NOT NULL,
        token_manufacturer TEXT NOT NULL,
        token_model        TEXT NOT NULL,
        token_serial       TEXT NOT NULL,
        object_id          BLOB NOT NULL,
        object_label       TEXT NOT NULL DEFAULT '',
        added_at           TEXT NOT NULL
    );

    """
}
