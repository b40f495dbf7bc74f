// Key revocation lists (PROTOCOL.krl) that trust origins brought, in
// `known_hosts_revocation_lists` (schema v15): a bundle carries its CA's KRL (`bundle export
// --ca`), and after it is applied a host key, or a host certificate, that the KRL revokes is
// revoked for every name, whatever else trusts it (as ssh's `RevokedHostKeys`): `check`
// answers `.revoked` and names the list. A KRL revokes and trusts nothing, so it is not
// bound to the bundle's hosts.
import KeyFormats

extension KnownHostsStore {
    /// Stores `list` (its encoded bytes) for `source`, replacing the one it had; nil
    /// removes it. Runs in the caller's transaction.
    func setRevocationList(_ bytes: [UInt8]?, source: String, now: String) throws {
        if let bytes {
            try connection.run(KnownHostsSQL.setRevocationList, [.text(source), .blob(bytes), .text(now)])
        } else {
            try connection.run(KnownHostsSQL.deleteRevocationList, [.text(source)])
        }
    }

    /// The KRL bytes stored for `source`, or nil.
    func revocationListBytes(source: String) throws -> [UInt8]? {
        try connection.query(KnownHostsSQL.revocationListOfSource, [.text(source)]).first?.blob(0)
    }

    /// The sources of the stored KRLs, with the lists (one that no longer parses is skipped).
    public func revocationLists() throws -> [(source: String, list: KeyRevocationList)] {
        try connection.query(KnownHostsSQL.revocationLists).compactMap { row in
            guard let source = row.text(0), let bytes = row.blob(1), let list = try? KeyRevocationList(bytes: bytes) else { return nil }
            return (source, list)
        }
    }

    /// The source of the first stored KRL that revokes `presented` (a plain key, or a
    /// certificate: its serial, key id, certified key or CA key), or nil.
    func revokingList(_ presented: PresentedHostKey) throws -> String? {
        for (source, list) in try revocationLists() {
            let revoked: KeyRevocationList.Revocation?
            switch presented {
            case .plain(let key): revoked = list.revocation(of: key)
            case .certificate(let certificate): revoked = list.revocation(of: certificate.key, certificate: certificate)
            }
            if revoked != nil { return source }
        }
        return nil
    }
}
