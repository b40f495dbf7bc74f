// Which saved hosts trust a given host key or host certificate: what the standing agent
// asks when a connection is bound to a server's key (session-bind), to offer only the keys
// of the hosts behind that server, and for each hop a connection was forwarded through.
// The answer is the trust core's: a host counts when `check` for its own hostname and port
// says trusted, so hashed names, pattern lists, the `[host]:port` fallback, `@revoked` and
// `@cert-authority` all count exactly as they do for a connection.

import KeyFormats

extension KnownHostsStore {
    /// The names of the saved hosts (name order) whose own hostname and port trust the
    /// host key `presented`: a plain key, or a host certificate trusted through an
    /// `@cert-authority` entry for its CA (or through its certified key, as ssh falls back).
    public func hostNames(trusting presented: PresentedHostKey) throws -> [String] {
        // The blobs an entry that decides for the key holds: the key; for a certificate,
        // its CA's key and its certified key.
        let blobs: [[UInt8]]
        switch presented {
        case .plain(let key): blobs = [key.blob]
        case .certificate(let certificate): blobs = [certificate.signatureKey.blob, certificate.key.blob]
        }
        // Candidates first (a cheap superset): hosts whose hostname has an entry holding
        // one of the blobs; every host when a pattern-list or hashed entry holds one.
        let candidates: [(name: String, hostname: String, port: Int)] = try database.read {
            let special = try blobs.contains { try connection.query(KnownHostsSQL.specialHoldingKey, [.blob($0)]).first != nil }
            let rows = special ? try connection.query(KnownHostsSQL.allSavedHosts, [])
                : try blobs.flatMap { try connection.query(KnownHostsSQL.savedHostsNamedByKeyHolders, [.blob($0)]) }
            var seen: Set<String> = []
            return rows.compactMap { row in
                guard let name = row.text(0), let hostname = row.text(1), let port = row.int(2), seen.insert(name).inserted else { return nil }
                return (name, hostname, Int(port))
            }
        }
        var names: [String] = []
        for c in candidates {
            let lookup = HostLookupName(host: c.hostname, port: c.port)
            if try check(lookup, presented: presented).decision.status == .trusted { names.append(c.name) }
        }
        // A certificate's two queries: merged back into name order as one query gives it
        // (NOCASE folds ASCII case only).
        return blobs.count == 1 ? names : names.sorted { HostPatternList.lowercased($0) < HostPatternList.lowercased($1) }
    }

    /// `hostNames(trusting:)` for a host key blob as the SSH protocol carries it; empty for
    /// a blob that is not a key or a certificate.
    public func hostNames(trustingHostKey blob: [UInt8]) throws -> [String] {
        guard let presented = try? PresentedHostKey(blob: blob) else { return [] }
        return try hostNames(trusting: presented)
    }
}
