// Every SQL statement that writes the host tables (`hosts`, `host_tags`, and the importers'
// `tailscale_nodes` and `ssh_config_hosts`). The tables are created in CoreSchema,
// TailscaleSchema and SSHConfigSchema; HostRepository (one host at a time) and
// HostBulkWriter (the importers) are the only users.

enum HostSQL {
    // MARK: Hosts

    /// A host added by hand (`hostbook add`).
    static let insertManual = """
        INSERT INTO hosts(uuid, name, hostname, port, user, auth, key_id, jump_host_id, note, source, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'manual', strftime('%Y-%m-%dT%H:%M:%SZ','now'), strftime('%Y-%m-%dT%H:%M:%SZ','now'))
        """
    /// A host added by an importer.
    static let insertImported = """
        INSERT INTO hosts (uuid, name, hostname, port, user, auth, key_id, source, source_id, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    /// A host a team bundle brings (source `bundle:NAME`); its jump host is set once every
    /// host of the bundle is written (`setJump`).
    static let insertFromBundle = """
        INSERT INTO hosts(uuid, name, hostname, port, user, auth, key_id, note, source, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ','now'), strftime('%Y-%m-%dT%H:%M:%SZ','now'))
        """
    /// A bundle's update of a host it brought (the jump host is set again afterwards).
    static let updateFromBundle = """
        UPDATE hosts SET name = ?, hostname = ?, port = ?, user = ?, auth = ?, key_id = ?, jump_host_id = NULL, note = ?,
               updated_at = strftime('%Y-%m-%dT%H:%M:%SZ','now')
        WHERE id = ?
        """
    static let deleteAliasesOfHost = "DELETE FROM host_aliases WHERE host_id = ?"
    static let deleteTagsOfHost = "DELETE FROM host_tags WHERE host_id = ?"
    /// Every field `hostbook edit` can change.
    static let edit = """
        UPDATE hosts SET name = ?, hostname = ?, port = ?, user = ?, auth = ?, key_id = ?, jump_host_id = ?, note = ?,
               allow_agent_forwarding = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ','now')
        WHERE id = ?
        """
    /// The Tailscale import's update: the hostname, and the user when the host has none.
    static let updateFromTailscale = "UPDATE hosts SET hostname = ?, user = COALESCE(user, ?), updated_at = ? WHERE id = ?"
    /// The ssh_config import's update.
    static let updateFromSSHConfig = "UPDATE hosts SET hostname = ?, port = ?, user = ?, auth = ?, key_id = ?, updated_at = ? WHERE id = ?"
    static let setJump = "UPDATE hosts SET jump_host_id = ? WHERE id = ?"
    static let delete = "DELETE FROM hosts WHERE id = ?"
    /// The host furthest up the jump chains through host ?1 (itself at depth 0), and its
    /// depth; the walk stops at depth ?2.
    static let deepestJumpingThrough = """
        WITH RECURSIVE users(id, depth) AS (
            SELECT ?1, 0
            UNION ALL
            SELECT h.id, users.depth + 1 FROM hosts h JOIN users ON h.jump_host_id = users.id WHERE users.depth < ?2)
        SELECT h.name, users.depth FROM users JOIN hosts h ON h.id = users.id ORDER BY users.depth DESC LIMIT 1
        """

    // MARK: Tags

    static let insertTag = "INSERT INTO host_tags(host_id, tag) VALUES (?, ?)"
    /// An importer's tag, which the host may have already.
    static let insertTagIfMissing = "INSERT OR IGNORE INTO host_tags (host_id, tag) VALUES (?, ?)"
    /// A tag removed by `hostbook edit` (any letter case).
    static let deleteTagAnyCase = "DELETE FROM host_tags WHERE host_id = ? AND tag = ? COLLATE NOCASE"
    /// A tag an import wrote and the device no longer has.
    static let deleteTag = "DELETE FROM host_tags WHERE host_id = ? AND tag = ?"

    // MARK: Aliases

    static let insertAlias = "INSERT INTO host_aliases(alias, host_id) VALUES (?, ?)"
    /// An alias removed by `hostbook edit --no-alias` (any letter case).
    static let deleteAlias = "DELETE FROM host_aliases WHERE host_id = ? AND alias = ?"
    static let aliasesOfHost = "SELECT alias FROM host_aliases WHERE host_id = ? ORDER BY alias COLLATE NOCASE"
    static let allAliases = "SELECT host_id, alias FROM host_aliases ORDER BY host_id, alias COLLATE NOCASE"
    /// The host a name or alias finds (?1, any letter case): the name first.
    static let hostIDNamed = """
        SELECT COALESCE((SELECT id FROM hosts WHERE name = ?1), (SELECT host_id FROM host_aliases WHERE alias = ?1))
        """

    // MARK: Importers' records

    static let saveTailscaleNode = """
        INSERT OR REPLACE INTO tailscale_nodes (host_id, node_id, dns_name, os, online, last_seen, owner, tags, imported_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let saveSSHConfigOrigin = """
        INSERT OR REPLACE INTO ssh_config_hosts (host_id, alias, source_file, source_line, imported_at) VALUES (?, ?, ?, ?, ?)
        """
}
