// Where a key that lives on a PKCS#11 token is found (schema v14): the key itself is a row of
// `keys` with location `token` (its public half, name, fingerprint); this table says which
// module, token and object sign for it. Public data only: the private half never leaves
// the token and the PIN is never stored (the agent asks it per session). The token is found
// again by its serial and label, whatever slot it sits in (TokenKeys).
//
// token_keys
//   key_id          the key (keys.id); goes with it (ON DELETE CASCADE)
//   module          the PKCS#11 module's absolute path
//   token_label, token_manufacturer, token_model, token_serial
//                   the token's identity (C_GetTokenInfo)
//   object_id       CKA_ID of the key pair
//   object_label    CKA_LABEL of the public key object ('' when none)

extension KeysSchema {
    static let v14TokenKeys = """
    CREATE TABLE token_keys (
        key_id             INTEGER PRIMARY KEY REFERENCES keys(id) ON DELETE CASCADE,
        module             TEXT NOT NULL,
        token_label        TEXT NOT NULL,
        token_manufacturer TEXT NOT NULL,
        token_model        TEXT NOT NULL,
        token_serial       TEXT NOT NULL,
        object_id          BLOB NOT NULL,
        object_label       TEXT NOT NULL DEFAULT ''
    );

    """
}
