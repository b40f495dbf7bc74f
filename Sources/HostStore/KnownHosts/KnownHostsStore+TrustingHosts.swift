// Which saved hosts trust a given host key: what the standing agent asks when a
// connection is bound to a server's key (session-bind), to offer only the keys of the
// hosts behind that server. The answer is the trust core's: a host counts when `check`
// for its own hostname and port says trusted, so hashed names, pattern lists, the
// `[host]:port` fallback and `@revoked` all count exactly as they do for a connection.

import KeyFormats

extension KnownHostsStore {
    /// The names of the saved hosts (name order) whose own hostname and port trust the
    /// plain key `keyBlob`; empty for a blob that is not a key.
    public func hostNames(trustingHostKey keyBlob: [UInt8]) throws -> [String] {
        guard let key = try? PublicKey(blob: keyBlob) else { return [] }
        // Candidates first (a cheap superset): hosts whose hostname has an entry holding
        // the key; every host when a pattern-list or hashed entry holds it.
        let candidates: [(name: String, hostname: String, port: Int)] = try database.read {
            let special = try connection.query(KnownHostsSQL.specialHoldingKey, [.blob(key.blob)]).first != nil
            let rows = try connection.query(special ? KnownHostsSQL.allSavedHosts : KnownHostsSQL.savedHostsNamedByKeyHolders,
                                            special ? [] : [.blob(key.blob)])
            return rows.compactMap { row in
                guard let name = row.text(0), let hostname = row.text(1), let port = row.int(2) else { return nil }
                return (name, hostname, Int(port))
            }
        }
        var names: [String] = []
        for c in candidates {
            let lookup = HostLookupName(host: c.hostname, port: c.port)
            if try check(lookup, presented: .plain(key)).decision.status == .trusted { names.append(c.name) }
        }
        return names
    }
}
