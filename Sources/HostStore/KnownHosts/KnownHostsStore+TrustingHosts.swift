// Which saved hosts trust a given host key: what the standing agent asks when a
// connection is bound to a server's key (session-bind), to offer only the keys of the
// hosts behind that server.

extension KnownHostsStore {
    /// The names of the saved hosts (name order) for which an unmarked entry holds
    /// `keyBlob` under the host's own hostname and port, unless an entry revokes it.
    /// Plain names only: pattern lists and hashed names are not tied to a saved host.
    public func hostNames(trustingHostKey keyBlob: [UInt8]) throws -> [String] {
        try database.read {
            if try connection.query("SELECT 1 FROM known_hosts WHERE key_blob = ?1 AND marker = 'revoked' LIMIT 1", [.blob(keyBlob)]).first != nil {
                return []
            }
            return try connection.query("""
                SELECT DISTINCT h.name FROM hosts h
                JOIN known_hosts k ON k.pattern = h.hostname COLLATE NOCASE AND k.port = h.port
                WHERE k.key_blob = ?1 AND k.marker = ''
                ORDER BY h.name COLLATE NOCASE
                """, [.blob(keyBlob)]).compactMap { $0.text(0) }
        }
    }
}
