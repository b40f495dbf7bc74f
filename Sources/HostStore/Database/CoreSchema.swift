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
