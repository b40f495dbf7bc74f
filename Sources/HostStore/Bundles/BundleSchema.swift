// Tables of team bundles (schema version 6). Hosts a bundle brought are the hosts rows with
// source `bundle:NAME`, and its host keys the known_hosts rows with that source; snippets
// have no source column, so `bundle_snippets` says which snippet rows a bundle brought.
//
// bundle_signers        the keys allowed to sign a bundle (`bundle trust`), in trust order.
// bundle_subscriptions  where a subscribed bundle is pulled from (a git URL or path).
// bundle_applied        the serial (stored as the bit pattern of a UInt64) and the SHA-256
//                       of the canonical text last applied.
// bundle_snippets       which snippet rows each bundle brought; goes with the snippet.
// bundle_exported       (version 11) the serial this database last exported for each
//                       bundle name, so an export never writes a lower or equal one again
//                       whatever folder it writes into.
// bundle_overrides      (version 11) the fields of a bundle's host the subscriber changed
//                       (`edit`): the field and the bundle's value of it; the host row holds
//                       the subscriber's value, which updates keep. Goes with the host.
// bundle_user_omitted   (version 13) the hosts every export publishes without their user
//                       (`edit --bundle-user omit`). Goes with the host.
// bundle_ca_scopes      (version 15) the host patterns a subscriber granted a bundle
//                       beyond its own hosts (`bundle trust NAME --ca-scope PATTERN`), for
//                       its `@cert-authority` lines (TrustAuthority's `granted`).

enum BundleSchema {
    static let v6 = """
    CREATE TABLE bundle_signers (
        id          INTEGER PRIMARY KEY,
        bundle      TEXT NOT NULL COLLATE NOCASE,
        key_type    TEXT NOT NULL,
        key_blob    BLOB NOT NULL,
        fingerprint TEXT NOT NULL,
        added_at    TEXT NOT NULL,
        UNIQUE (bundle, key_blob)
    );
    CREATE TABLE bundle_subscriptions (
        bundle TEXT PRIMARY KEY COLLATE NOCASE,
        url    TEXT NOT NULL
    );
    CREATE TABLE bundle_applied (
        bundle     TEXT PRIMARY KEY COLLATE NOCASE,
        serial     INTEGER NOT NULL,
        digest     TEXT NOT NULL,
        applied_at TEXT NOT NULL
    );
    CREATE TABLE bundle_snippets (
        snippet_id INTEGER PRIMARY KEY REFERENCES snippets(id) ON DELETE CASCADE,
        bundle     TEXT NOT NULL COLLATE NOCASE
    );
    CREATE INDEX bundle_snippets_bundle ON bundle_snippets(bundle);

    """

    static let v11 = """
    CREATE TABLE bundle_exported (
        bundle      TEXT PRIMARY KEY COLLATE NOCASE,
        serial      INTEGER NOT NULL,
        exported_at TEXT NOT NULL
    );
    CREATE TABLE bundle_overrides (
        host_id      INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
        field        TEXT NOT NULL,
        bundle_value TEXT,
        PRIMARY KEY (host_id, field)
    );

    """

    static let v13UserOmitted = """
    CREATE TABLE bundle_user_omitted (
        host_id INTEGER PRIMARY KEY REFERENCES hosts(id) ON DELETE CASCADE
    );

    """

    static let v15CAScopes = """
    CREATE TABLE bundle_ca_scopes (
        bundle   TEXT NOT NULL COLLATE NOCASE,
        pattern  TEXT NOT NULL,
        added_at TEXT NOT NULL,
        PRIMARY KEY (bundle, pattern)
    );

    """
}
