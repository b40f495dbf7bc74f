// Which saved hosts log in with a key: the one rule `hostbook git setup` (never narrow a key
// a saved host uses), `keys edit --namespace` (warn) and `doctor` (a restricted key a saved
// host uses) share. A host logs in with the key attached to it (`--key`); names compare
// without regard to case, as the key names do.

/// A key restricted to SSHSIG namespaces that saved hosts still log in with: the agents
/// refuse those logins.
public struct RestrictedKeyInUse: Sendable, Equatable {
    public let key: String
    public let namespaces: [String]
    /// The saved hosts attached to the key, by name.
    public let hosts: [String]
}

extension HostDatabase {
    /// The names of the saved hosts attached to the key named `keyName`, sorted.
    public func hostsLoggingIn(withKey keyName: String) throws -> [String] {
        try hosts().filter { $0.key?.lowercased() == keyName.lowercased() }.map(\.name)
    }

    /// Every key restricted to namespaces that a saved host is attached to, by key name.
    public func restrictedKeysInUse() throws -> [RestrictedKeyInUse] {
        let restricted = try KeyNamespaces(database: self).all()
        guard !restricted.isEmpty else { return [] }
        let hosts = try hosts()
        return try KeyStore(database: self).list().compactMap { key in
            guard let namespaces = restricted[key.id] else { return nil }
            let users = hosts.filter { $0.key?.lowercased() == key.name.lowercased() }.map(\.name)
            return users.isEmpty ? nil : RestrictedKeyInUse(key: key.name, namespaces: namespaces.sorted(), hosts: users)
        }
    }
}
