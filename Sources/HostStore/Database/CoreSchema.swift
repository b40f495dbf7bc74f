// Tables for the database itself, hosts, tags and snippets (schema version 1).

enum CoreSchema {
    static let v1 = """
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE hosts (
        id           INTEGER PRIMARY KEY,
        uuid         TEXT NOT NULL UNIQUE,
        name         TEXT NOT NULL UNIQUE COLLATE NOCASE,
        hostname     TEXT NOT NULL,
        port         INTEGER NOT NULL DEFAULT 22 CHECK (port BETWEEN 1 AND 65535),
        user         TEXT,
        auth         TEXT NOT NULL DEFAULT 'agent' CHECK (auth IN ('password','key','agent','none')),
        key_id       INTEGER REFERENCES keys(id) ON DELETE RESTRICT,
        jump_host_id INTEGER REFERENCES hosts(id) ON DELETE RESTRICT,
        note         TEXT,
        source       TEXT NOT NULL DEFAULT 'manual',
        source_id    TEXT,
        created_at   TEXT NOT NULL,
        updated_at   TEXT NOT NULL
    );
    CREATE TABLE host_tags (
        host_id INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
        tag     TEXT NOT NULL,
        PRIMARY KEY (host_id, tag)
    );
    CREATE TABLE snippets (
        id          INTEGER PRIMARY KEY,
        uuid        TEXT NOT NULL UNIQUE,
        name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
        command     TEXT NOT NULL,
        description TEXT,
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL
    );

    """
}

extension CoreSchema {
    /// Version 2: indexes for the lookups hostbook makes — re-import by source id
    /// (Tailscale node ID), `list --tag`, and the foreign keys checked when a key or a
    /// jump host is removed.
    static let v2 = """
    CREATE INDEX hosts_source ON hosts(source, source_id);
    CREATE INDEX host_tags_tag ON host_tags(tag COLLATE NOCASE);
    CREATE INDEX hosts_key ON hosts(key_id) WHERE key_id IS NOT NULL;
    CREATE INDEX hosts_jump ON hosts(jump_host_id) WHERE jump_host_id IS NOT NULL;

    """

    /// Version 13: a snippet's tags (`snippets add|edit --tag`), so that `bundle export
    /// --tag` publishes the snippets with the tag. Goes with the snippet.
    static let v13SnippetTags = """
    CREATE TABLE snippet_tags (
        snippet_id INTEGER NOT NULL REFERENCES snippets(id) ON DELETE CASCADE,
        tag        TEXT NOT NULL COLLATE NOCASE,
        PRIMARY KEY (snippet_id, tag)
    );

    """
}
